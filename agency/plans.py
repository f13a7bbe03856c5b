"""Checking a plan: the moves a plan's state may make, and every change a plan body would
make now, each ready or blocked with a code and a reason, found by one checker per section
of the body (workspace, settings, team, programmes, integrations). Nothing here writes: a
plan is checked when it is drafted and again, under its lock, when it is applied
(agency/apply.py), so the same checkers decide both times.
"""

from dataclasses import dataclass, field
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from core.emails import email_normalise
from core.errors import Conflict, InvalidField, PaymentRequired
from core.ids import parse_uuid
from core.money import CURRENCY_EXPONENTS, MoneyInvalid, minor_from_major
from integrations.models import Connection
from integrations.providers import PROVIDERS
from workspaces.models import Agency, Invitation, Member, Workspace
from workspaces.validators import logo_url, origin_normalise

from .models import Plan

State = Plan.State

# The only moves a plan makes: (state, action) -> next state. Anything else is 409.
PLAN_TRANSITIONS: dict[tuple[str, str], str] = {
    (State.DRAFTED, "request_approval"): State.WAITING_FOR_APPROVAL,
    (State.WAITING_FOR_APPROVAL, "approve"): State.APPROVED,
    (State.WAITING_FOR_APPROVAL, "refuse"): State.REFUSED,
    (State.DRAFTED, "apply"): State.APPLIED,
    (State.APPROVED, "apply"): State.APPLIED,
}
ACTION_WORDS = {
    "request_approval": "sent for approval",
    "approve": "approved",
    "refuse": "declined",
    "apply": "applied",
}

# The members of a plan's settings, in the documented order: a JSON column does not keep
# the order of an object's keys, so the changes are listed in this one.
SETTINGS_MEMBERS = (
    "name",
    "timezone",
    "working_days",
    "logo",
    "colours",
    "labels",
    "modules",
    "embedded_origins",
    "embedded_redirect_uri",
)

Blocked = tuple[str, str] | None  # (code, reason) of a blocked change


def agency_plan_require(agency: Agency) -> None:
    """402 unless the agency's tier has plans, apply and blueprints."""
    if not agency.has_agency_plan:
        raise PaymentRequired(
            f"The agency is on the {agency.tier} plan: plans, apply and blueprints need the "
            "Agency plan or above. Upgrade the agency's plan to use them."
        )


def plan_next_state(plan: Plan, action: str) -> str:
    """The state the plan moves to, or 409 refused.plan_state."""
    next_state = PLAN_TRANSITIONS.get((plan.state, action))
    if next_state is None:
        allowed = sorted({state for (state, act) in PLAN_TRANSITIONS if act == action})
        raise Conflict(
            f"A plan that is {plan.state} cannot be {ACTION_WORDS[action]}; only a plan that "
            f"is {' or '.join(allowed)} can.",
            reason="refused.plan_state",
            state=plan.state,
        )
    return next_state


def plan_bodies_merge(blueprint: dict, plan: dict) -> dict:
    """The blueprint's shape, then the plan's on top (same email, name or key: the plan's)."""

    def by(items, key):
        merged = {item[key]: item for item in items}
        return list(merged.values())

    return {
        "workspace": plan["workspace"],
        "settings": {**blueprint.get("settings", {}), **plan["settings"]},
        "team": by([*blueprint.get("team", []), *plan["team"]], "email"),
        "programmes": by([*blueprint.get("programmes", []), *plan["programmes"]], "name"),
        "integrations": list(
            dict.fromkeys([*blueprint.get("integrations", []), *plan["integrations"]])
        ),
    }


def price_minor(price: str, exponent: int) -> int | None:
    """The price in minor units, or None when it has more decimals than the currency."""
    try:
        return minor_from_major(price, exponent=exponent)
    except MoneyInvalid:
        return None


def _timezone_known(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def _change(op: str, target: str, detail: dict, blocked: Blocked = None) -> dict:
    change = {"op": op, "target": target, "detail": detail, "status": "ready"}
    if blocked:
        code, reason = blocked
        change.update(status="blocked", reason=reason, code=code)
    return change


@dataclass
class _Target:
    """The workspace a plan changes (None when it creates one) and what the checkers need."""

    workspace: Workspace | None = None
    currency: str | None = None
    # Why every other change is blocked, when the workspace itself is.
    blocked: Blocked = None
    changes: list[dict] = field(default_factory=list)


def _workspace_check(agency: Agency, spec: dict) -> _Target:
    if "id" in spec:
        pk = parse_uuid(spec["id"])
        workspace = Workspace.active.filter(agency=agency, pk=pk).first() if pk else None
        if workspace is None:
            blocked = (
                "workspace_not_found",
                f"No workspace of this agency has the id {spec['id']}.",
            )
            return _Target(
                blocked=blocked, changes=[_change("workspace.update", spec["id"], {}, blocked)]
            )
        return _Target(workspace=workspace, currency=workspace.currency)
    currency, timezone_name = spec["currency"], spec["timezone"]
    problem = None
    if Workspace.objects.filter(slug=spec["slug"]).exists():
        problem = ("slug_taken", f"The slug {spec['slug']!r} is already taken.")
    elif currency not in CURRENCY_EXPONENTS:
        problem = ("currency_unknown", f"The currency {currency!r} is not one we know.")
    elif not _timezone_known(timezone_name):
        problem = ("timezone_unknown", f"The timezone {timezone_name!r} is not an IANA name.")
    blocked = None
    if problem:
        blocked = ("workspace_blocked", f"The workspace cannot be created: {problem[1]}")
    return _Target(
        currency=currency,
        blocked=blocked,
        changes=[_change("workspace.create", spec["slug"], dict(spec), problem)],
    )


def _setting_refused(key: str, value) -> Blocked:
    """Origins and logo kept by a blueprint saved before today's rules are checked again."""
    try:
        if key == "logo":
            logo_url(value, field="settings.logo")
        else:
            for index, origin in enumerate(value or []):
                if origin_normalise(origin, field=f"settings.{key}.{index}") != origin:
                    raise InvalidField(
                        f"settings.{key}.{index}", f"{origin!r} is not written as an origin."
                    )
    except InvalidField as error:
        return ("logo_invalid" if key == "logo" else "origin_invalid", error.message)
    return None


def _settings_check(target: _Target, settings: dict) -> list[dict]:
    changes = []
    for key in sorted(settings, key=SETTINGS_MEMBERS.index):
        value = settings[key]
        problem = target.blocked
        if not problem and key == "timezone" and not _timezone_known(value):
            problem = ("timezone_unknown", f"The timezone {value!r} is not an IANA name.")
        if not problem and key in {"embedded_origins", "logo"}:
            problem = _setting_refused(key, value)
        if not problem and key == "embedded_redirect_uri" and target.workspace is not None:
            # Used only when the plan makes the workspace (and its embedded app).
            problem = (
                "setting_not_changed",
                "The embedded app's redirect URI is set when a plan creates the workspace; "
                "an owner or admin changes it on the workspace's embedded apps page.",
            )
        changes.append(
            _change("settings.update", f"settings.{key}", {"key": key, "value": value}, problem)
        )
    return changes


def _team_check(target: _Target, team: list[dict]) -> list[dict]:
    existing_emails = set()
    if target.workspace is not None:
        existing_emails = {
            email_normalise(email)
            for email in Member.objects.filter(workspace=target.workspace).values_list(
                "email", flat=True
            )
        }
    invited_emails = set()
    if target.workspace is not None:
        invited_emails = set(
            Invitation.objects.filter(
                workspace=target.workspace,
                state__in=[Invitation.State.PENDING, Invitation.State.PROPOSED],
            ).values_list("email", flat=True)
        )
    changes, listed = [], set()
    for person in team:
        problem = target.blocked
        if not problem and person["email"] in existing_emails:
            problem = ("member_exists", f"{person['email']} is already a member of the workspace.")
        elif not problem and email_normalise(person["email"]) in invited_emails:
            problem = (
                "already_invited",
                f"{person['email']} is already invited to the workspace (or waits for an "
                "owner's approval); nothing is sent again.",
            )
        elif not problem and person["email"] in listed:
            problem = ("listed_twice", f"{person['email']} is listed twice in the team.")
        elif not problem and target.workspace is not None and person["role"] == "owner":
            problem = (
                "role_not_proposed",
                "A plan proposes admin or a lesser role on a workspace that already exists; "
                "only its owners make an owner.",
            )
        listed.add(person["email"])
        changes.append(_change("member.add", person["email"], dict(person), problem))
    return changes


def _programmes_check(target: _Target, programmes: list[dict]) -> list[dict]:
    currency = target.currency
    exponent = CURRENCY_EXPONENTS.get(currency or "", 2)
    existing = set()
    if target.workspace is not None:
        existing = {p.get("name") for p in (target.workspace.branding or {}).get("programmes", [])}
    changes = []
    for programme in programmes:
        problem = target.blocked
        if not problem and price_minor(programme["price"], exponent) is None:
            problem = (
                "price_decimals",
                f"{currency} has {exponent} decimals; the price {programme['price']} has more.",
            )
        op = "programme.update" if programme["name"] in existing else "programme.add"
        changes.append(_change(op, programme["name"], dict(programme), problem))
    return changes


def _integrations_check(target: _Target, integrations: list[str]) -> list[dict]:
    connected = set()
    if target.workspace is not None:
        connected = set(
            Connection.objects.filter(workspace=target.workspace)
            .exclude(state=Connection.State.DISCONNECTED)
            .values_list("provider", flat=True)
        )
    changes, offered = [], set()
    for key in integrations:
        problem = target.blocked
        if not problem and key in offered:
            problem = ("listed_twice", f"{key} is listed twice.")
        elif not problem and key not in PROVIDERS:
            problem = (
                "integration_unknown",
                f"Unknown integration {key!r}; known: {', '.join(PROVIDERS)}.",
            )
        elif not problem and key in connected:
            problem = ("integration_connected", f"{key} is already connected to the workspace.")
        offered.add(key)
        changes.append(_change("integration.connect", key, {"integration": key}, problem))
    return changes


def plan_changes(*, agency: Agency, body: dict) -> tuple[list[dict], Workspace | None]:
    """Every change the plan would make now, and the existing workspace it changes."""
    target = _workspace_check(agency, body["workspace"])
    changes = [
        *target.changes,
        *_settings_check(target, body["settings"]),
        *_team_check(target, body["team"]),
        *_programmes_check(target, body["programmes"]),
        *_integrations_check(target, body["integrations"]),
    ]
    return changes, target.workspace
