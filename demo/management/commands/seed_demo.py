"""Create the demo (README.md, "The demo") and print it.

``--json`` prints one JSON object on stdout: the demo's agencies, workspaces, members
and tokens. ``--if-absent --summary`` (used by ``make run``) reprints the saved demo
when it is still in the database and creates one otherwise. Tokens are shown once and
stored hashed, so the demo JSON is kept in ``.demo.json`` (mode 0600, gitignored).
"""

import json
import os
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from demo.services import DEMO_PASSWORD, demo_create, demo_exists, demo_sessions_renew
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

    def handle(self, *args, json: bool, summary: bool, if_absent: bool, seed: int, **options):
        as_json = json
        demo, created = None, False
        if if_absent:
            demo = _load()
            if demo is not None and not demo_exists(demo):
                demo = None
            if demo is not None and demo_sessions_renew(demo):
                _save(demo)
        if demo is None:
            demo, _extra = demo_create(seed=seed)
            created = True
            _save(demo)
        if as_json:
            self.stdout.write(_json_dumps(demo))
        if summary or not as_json:
            self.stdout.write(_summary(demo, created))


def _json_dumps(value) -> str:
    return json.dumps(value, indent=None, separators=(",", ":"))


def _load():
    try:
        return json.loads(DEMO_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _save(demo: dict) -> None:
    try:
        fd = os.open(DEMO_FILE, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            os.fchmod(handle.fileno(), 0o600)
            json.dump(demo, handle, indent=2)
    except OSError as error:
        raise CommandError(f"Cannot save the demo to {DEMO_FILE}: {error.strerror}.") from None


def _console_login(agency_id: str) -> str:
    user = Agency.objects.get(pk=agency_id).users.order_by("pk").first()
    if user is None:
        return "  (no console sign-in)"
    return f"  agency console sign-in {user.get_username()} / {DEMO_PASSWORD}"


def _summary(demo: dict, created: bool) -> str:
    base = demo["base_url"]
    lines = [
        "",
        "Demo " + ("created" if created else "already present") + f" (saved in {DEMO_FILE.name}).",
        "",
        f"Agency {demo['agency']['id']} (tier {demo['agency']['tier']}):",
    ]
    for name, token in demo["agency"]["tokens"].items():
        lines.append(f"  agency token {name:9} {token}")
    lines.append(_console_login(demo["agency"]["id"]))
    lines.append(f"Starter agency {demo['starter_agency']['id']}:")
    for name, token in demo["starter_agency"]["tokens"].items():
        lines.append(f"  agency token {name:9} {token}")
    lines.append(_console_login(demo["starter_agency"]["id"]))
    for ws in demo["workspaces"]:
        lines += [
            "",
            f"Workspace {ws['slug']} ({ws['currency']}, {ws['timezone']}) id {ws['id']}",
            f"  read token   {ws['tokens']['read']}",
            f"  write token  {ws['tokens']['write']}",
            f"  embedded app client_id {ws['embedded_app']['client_id']}"
            f" redirect {ws['embedded_app']['redirect_uri']}",
            "  members (sign in with the email and the password " + DEMO_PASSWORD + "):",
        ]
        for member in ws["members"]:
            lines.append(
                f"    {member['role']:8} {member['email']:40} session {member['session_token']}"
            )
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
