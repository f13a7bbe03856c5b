"""Create the demo (README.md, "The demo") and print it.

``--json`` prints one JSON object on stdout: the demo's agencies, workspaces, members
and tokens. ``--if-absent --summary`` (used by ``make run``) reprints the saved demo
when it is still in the database and creates one otherwise. Tokens are shown once and
stored hashed, so the demo JSON is kept in ``.demo.json`` (mode 0600, gitignored).

The demo's accounts sign in with a published password, so the command runs only with
DEBUG on (config.settings_dev, as ``make run`` does), unless ``--allow-production`` is
given: then every account gets a random password of its own, printed once by the run that
makes it (the members' in the JSON, every account's in the summary) and never saved.
"""

import copy
import json
import os
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from demo.services import demo_create, demo_exists, demo_sessions_renew
from workspaces.models import Agency

# DEMO_FILE moves it (a benchmark's demo keeps a laptop's own).
DEMO_FILE = Path(os.environ.get("DEMO_FILE") or Path(settings.BASE_DIR) / ".demo.json")


class Command(BaseCommand):
    help = "Create a fresh demo with tokens, members and four months of records."

    def add_arguments(self, parser):
        parser.add_argument(
            "--json", action="store_true", help="Print the demo as one JSON object."
        )
        parser.add_argument(
            "--summary", action="store_true", help="Print tokens, logins and curl lines for people."
        )
        parser.add_argument(
            "--if-absent",
            action="store_true",
            help="Reuse the demo saved in .demo.json when it is still in the database.",
        )
        parser.add_argument(
            "--seed", type=int, default=1, help="Records are the same for one seed."
        )
        parser.add_argument(
            "--allow-production",
            action="store_true",
            help="Run with DEBUG off (production settings); every demo account then gets a "
            "random password, printed once.",
        )

    def handle(
        self,
        *args,
        json: bool,
        summary: bool,
        if_absent: bool,
        seed: int,
        allow_production: bool,
        **options,
    ):
        production = not settings.DEBUG
        if production and not allow_production:
            raise CommandError(PRODUCTION_REFUSED)
        as_json = json
        demo, created, passwords = None, False, {}
        if if_absent:
            demo = _load()
            if demo is not None and not demo_exists(demo):
                demo = None
            if demo is not None and demo_sessions_renew(demo):
                _save(demo)
        if demo is None:
            demo, passwords = _create(seed, random_passwords=production)
            created = True
            _save(demo)
        if as_json:
            self.stdout.write(_json_dumps(_shown(demo, passwords)))
        if summary or not as_json:
            self.stdout.write(_summary(demo, created, passwords))


PRODUCTION_REFUSED = (
    "DEBUG is off (production settings), and the demo's accounts sign in with a published "
    "password: run it on a laptop (DJANGO_SETTINGS_MODULE=config.settings_dev), or pass "
    "--allow-production to make it here with a random password for each account."
)


def _create(seed: int, *, random_passwords: bool) -> tuple[dict, dict[str, str]]:
    """A new demo, and its accounts' random passwords (email: password) when it has them,
    which this run prints and the saved demo never keeps."""
    demo, extra = demo_create(seed=seed, random_passwords=random_passwords)
    if not random_passwords:
        return demo, {}
    for ws in demo["workspaces"]:
        for member in ws["members"]:
            member["password"] = None
    return demo, extra["passwords"]


def _shown(demo: dict, passwords: dict[str, str]) -> dict:
    """The demo as printed: with the random passwords of the accounts this run made."""
    if not passwords:
        return demo
    shown = copy.deepcopy(demo)
    for ws in shown["workspaces"]:
        for member in ws["members"]:
            member["password"] = passwords[member["email"]]
    return shown


def _json_dumps(value) -> str:
    return json.dumps(value, indent=None, separators=(",", ":"))


def _load():
    try:
        return json.loads(DEMO_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _save(demo: dict) -> None:
    """Saved as printed, tokens included, but no random password: those are printed once."""
    try:
        fd = os.open(DEMO_FILE, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            os.fchmod(handle.fileno(), 0o600)
            json.dump(demo, handle, indent=2)
    except OSError as error:
        raise CommandError(f"Cannot save the demo to {DEMO_FILE}: {error.strerror}.") from None


NOT_SHOWN = "(random, shown once when the demo was made)"


def _password(email: str, saved: str | None, passwords: dict[str, str]) -> str:
    return passwords.get(email) or saved or NOT_SHOWN


def _console_login(agency_id: str, published: str | None, passwords: dict[str, str]) -> str:
    user = Agency.objects.get(pk=agency_id).users.order_by("pk").first()
    if user is None:
        return "  (no console sign-in)"
    password = _password(user.email, published, passwords)
    return f"  agency console sign-in {user.get_username()} / {password}"


def _summary(demo: dict, created: bool, passwords: dict[str, str]) -> str:
    # Links go to the address this run serves (`make run PORT=8110`), not the saved one.
    base = settings.BASE_URL
    # A demo made with DEBUG on saves the published password with its members.
    published = next(
        (m["password"] for ws in demo["workspaces"] for m in ws["members"] if m["password"]),
        None,
    )
    lines = [
        "",
        "Demo " + ("created" if created else "already present") + f" (saved in {DEMO_FILE.name}).",
    ]
    if published is None:
        lines.append(
            "Its accounts have random passwords (production settings): "
            + ("each is shown here, once, and saved nowhere." if passwords else "not saved.")
        )
    if demo["base_url"] != base:
        lines.append(
            f"It was made for {demo['base_url']}: its embedded apps redirect there "
            "(`manage.py seed_demo` makes a demo for this address)."
        )
    lines += ["", f"Agency {demo['agency']['id']} (tier {demo['agency']['tier']}):"]
    for name, token in demo["agency"]["tokens"].items():
        lines.append(f"  agency token {name:9} {token}")
    lines.append(_console_login(demo["agency"]["id"], published, passwords))
    lines.append(f"Starter agency {demo['starter_agency']['id']}:")
    for name, token in demo["starter_agency"]["tokens"].items():
        lines.append(f"  agency token {name:9} {token}")
    lines.append(_console_login(demo["starter_agency"]["id"], published, passwords))
    for ws in demo["workspaces"]:
        lines += [
            "",
            f"Workspace {ws['slug']} ({ws['currency']}, {ws['timezone']}) id {ws['id']}",
            f"  read token   {ws['tokens']['read']}",
            f"  write token  {ws['tokens']['write']}",
            f"  embedded app client_id {ws['embedded_app']['client_id']}"
            f" redirect {ws['embedded_app']['redirect_uri']}",
        ]
        if published is not None:
            lines.append(f"  members (sign in with the email and the password {published}):")
        else:
            lines.append("  members (sign in with the email and the password after it):")
        for member in ws["members"]:
            line = f"    {member['role']:8} {member['email']:40} session {member['session_token']}"
            if published is None:
                line += f" password {_password(member['email'], None, passwords)}"
            lines.append(line)
    first = demo["workspaces"][0]
    read = first["tokens"]["read"]
    lines += [
        "",
        f"Try it ({first['slug']}):",
        f'  curl -H "Authorization: Bearer {read}" {base}/api/v1/whoami',
        f'  curl -H "Authorization: Bearer {read}" {base}/api/v1/calls',
        f"  MCP server: {base}/mcp with the header Authorization: Bearer {read} (docs/mcp.md)",
        "",
    ]
    return "\n".join(lines)
