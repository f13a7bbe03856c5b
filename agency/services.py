"""Writes of the agency: plans and their apply, blueprints, connect links, connections.

Each function is one transaction that records its audit event inside it; side effects
(the apply task) are sent with transaction.on_commit.
"""

import logging
import os
import secrets
import time
import uuid
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from oauth2_provider.models import get_application_model

from audit.services import Actor, audit_record
from core.errors import Conflict, InvalidField, PaymentRequired
from integrations.models import Connection
from integrations.providers import INTEGRATIONS, credentials_check, integration_get
from integrations.services import connection_create as integration_connection_create
from integrations.services import connection_id_for_link
from tokens.models import EmbeddedApp
from tokens.services import session_token_mint
from workspaces.invitations import invitation_create
from workspaces.models import CURRENCY_EXPONENTS, Agency, Member, Workspace
from workspaces.validators import logo_url, origin_normalise

from .models import Blueprint, ConnectLink, Plan, link_digest
from .serializers import SETTINGS_MEMBERS, merge_plan_bodies

logger = logging.getLogger(__name__)

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

DEFAULT_LINK_HOURS = 72
LINK_PATH = "/connect/"
# Test-only hook: makes an apply pause inside its transaction, so a test can kill the
# process half-way and see that nothing of the plan was kept.
PAUSE_SECONDS_ENV = "AGENCY_APPLY_PAUSE_SECONDS"
PAUSE_MARKER_ENV = "AGENCY_APPLY_PAUSE_MARKER"


def _require_agency_plan(agency: Agency) -> None:
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


# --- Checking a plan: the changes it makes, each ready or blocked ----------------------


def _timezone_known(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def _change(op, target, detail, blocked=None) -> dict:
    change = {"op": op, "target": target, "detail": detail, "status": "ready"}
    if blocked:
        code, reason = blocked
        change.update(status="blocked", reason=reason, code=code)
    return change


def _setting_refused(key: str, value) -> tuple[str, str] | None:
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


def _price_minor(price: str, exponent: int) -> int | None:
    amount = Decimal(price)
    minor = amount.scaleb(exponent)
    if minor != minor.to_integral_value():
        return None
    return int(minor)


def plan_changes(*, agency: Agency, body: dict) -> tuple[list[dict], Workspace | None]:
    """Every change the plan would make now, and the existing workspace it changes."""
    changes: list[dict] = []
    spec = body["workspace"]
    workspace = None
    workspace_blocked = None
    if "id" in spec:
        try:
            workspace = Workspace.active.filter(agency=agency, pk=uuid.UUID(spec["id"])).first()
        except ValueError:
            workspace = None
        if workspace is None:
            workspace_blocked = (
                "workspace_not_found",
                f"No workspace of this agency has the id {spec['id']}.",
            )
            changes.append(_change("workspace.update", spec["id"], {}, workspace_blocked))
        currency = workspace.currency if workspace else None
        timezone_name = workspace.timezone if workspace else None
    else:
        currency, timezone_name = spec["currency"], spec["timezone"]
        problem = None
        if Workspace.objects.filter(slug=spec["slug"]).exists():
            problem = ("slug_taken", f"The slug {spec['slug']!r} is already taken.")
        elif currency not in CURRENCY_EXPONENTS:
            problem = ("currency_unknown", f"The currency {currency!r} is not one we know.")
        elif not _timezone_known(timezone_name):
            problem = ("timezone_unknown", f"The timezone {timezone_name!r} is not an IANA name.")
        changes.append(_change("workspace.create", spec["slug"], dict(spec), problem))
        if problem:
            workspace_blocked = (
                "workspace_blocked",
                f"The workspace cannot be created: {problem[1]}",
            )

    # In the documented order: a JSON column does not keep the order of an object's keys.
    for key in sorted(body["settings"], key=SETTINGS_MEMBERS.index):
        value = body["settings"][key]
        problem = workspace_blocked
        if not problem and key == "timezone" and not _timezone_known(value):
            problem = ("timezone_unknown", f"The timezone {value!r} is not an IANA name.")
        if not problem and key in {"embedded_origins", "logo"}:
            problem = _setting_refused(key, value)
        changes.append(
            _change("settings.update", f"settings.{key}", {"key": key, "value": value}, problem)
        )

    existing_emails = set()
    if workspace is not None:
        existing_emails = {
            email.lower()
            for email in Member.objects.filter(workspace=workspace).values_list("email", flat=True)
        }
    listed = set()
    for person in body["team"]:
        problem = workspace_blocked
        if not problem and person["email"] in existing_emails:
            problem = (
                "member_exists",
                f"{person['email']} is already a member of the workspace.",
            )
        elif not problem and person["email"] in listed:
            problem = ("listed_twice", f"{person['email']} is listed twice in the team.")
        listed.add(person["email"])
        changes.append(_change("member.add", person["email"], dict(person), problem))

    exponent = CURRENCY_EXPONENTS.get(currency or "", 2)
    existing_programmes = set()
    if workspace is not None:
        existing_programmes = {
            p.get("name") for p in (workspace.branding or {}).get("programmes", [])
        }
    for programme in body["programmes"]:
        problem = workspace_blocked
        if not problem and _price_minor(programme["price"], exponent) is None:
            problem = (
                "price_decimals",
                f"{currency} has {exponent} decimals; the price {programme['price']} has more.",
            )
        op = "programme.update" if programme["name"] in existing_programmes else "programme.add"
        changes.append(_change(op, programme["name"], dict(programme), problem))

    connected = set()
    if workspace is not None:
        connected = set(
            Connection.objects.filter(workspace=workspace)
            .exclude(state=Connection.State.DISCONNECTED)
            .values_list("provider", flat=True)
        )
    offered = set()
    for key in body["integrations"]:
        problem = workspace_blocked
        if not problem and key in offered:
            problem = ("listed_twice", f"{key} is listed twice.")
        elif not problem and key not in INTEGRATIONS:
            problem = (
                "integration_unknown",
                f"Unknown integration {key!r}; known: {', '.join(INTEGRATIONS)}.",
            )
        elif not problem and key in connected:
            problem = ("integration_connected", f"{key} is already connected to the workspace.")
        offered.add(key)
        changes.append(_change("integration.connect", key, {"integration": key}, problem))
    return changes, workspace


# --- Plans ------------------------------------------------------------------------------


def plan_create(*, agency: Agency, actor: Actor, parsed: dict) -> Plan:
    """Check a plan and keep it as drafted; changes nothing else."""
    blueprint_key = parsed["blueprint"]
    shape = {k: parsed[k] for k in ("workspace", "settings", "team", "programmes", "integrations")}
    if blueprint_key:
        blueprint = Blueprint.objects.filter(agency=agency, key=blueprint_key).first()
        if blueprint is None:
            raise InvalidField("blueprint", f"The agency has no blueprint {blueprint_key!r}.")
        body = merge_plan_bodies(blueprint.body, shape)
    else:
        body = shape
    _require_agency_plan(agency)
    changes, _ = plan_changes(agency=agency, body=body)
    with transaction.atomic():
        plan = Plan.objects.create(
            agency=agency,
            blueprint_key=blueprint_key or "",
            body=body,
            result={"changes": changes},
            created_by=actor.label,
        )
        audit_record(
            actor=actor,
            action="plan.drafted",
            target_type="plan",
            target_id=plan.pk,
            agency=agency,
            detail={
                "changes": len(changes),
                "blocked": sum(1 for c in changes if c["status"] == "blocked"),
            },
        )
    return plan


def plan_request_approval(*, plan: Plan, actor: Actor) -> Plan:
    with transaction.atomic():
        plan = Plan.objects.select_for_update().get(pk=plan.pk)
        plan.state = plan_next_state(plan, "request_approval")
        plan.updated_at = timezone.now()
        plan.save(update_fields=["state", "updated_at"])
        audit_record(
            actor=actor,
            action="plan.approval_requested",
            target_type="plan",
            target_id=plan.pk,
            agency=plan.agency,
        )
    return plan


def plan_decide(*, plan: Plan, user, approve: bool, reason: str = "") -> Plan:
    """A person's decision in the agency console; an approved plan is applied by the worker."""
    from .tasks import apply_plan

    reason = (reason or "").strip()
    if not approve and not reason:
        raise InvalidField("reason", "Say why the plan is declined.")
    if "\x00" in reason:
        raise InvalidField("reason", "The reason holds a NUL character; remove it.")
    if approve:
        _require_agency_plan(plan.agency)
    with transaction.atomic():
        plan = Plan.objects.select_for_update().get(pk=plan.pk)
        plan.state = plan_next_state(plan, "approve" if approve else "refuse")
        plan.decided_by = user
        plan.decided_at = timezone.now()
        plan.decision_reason = reason
        plan.updated_at = plan.decided_at
        plan.save(
            update_fields=["state", "decided_by", "decided_at", "decision_reason", "updated_at"]
        )
        audit_record(
            actor=user_actor(user),
            action="plan.approved" if approve else "plan.refused",
            target_type="plan",
            target_id=plan.pk,
            agency=plan.agency,
            reason=reason,
        )
        if approve:
            plan_id = str(plan.pk)
            transaction.on_commit(lambda: apply_plan.delay(plan_id))
    return plan


def user_actor(user) -> Actor:
    return Actor(kind="user", id=str(user.pk), label=user.get_username())


@dataclass
class AppliedPlan:
    plan: Plan
    # Shown once, in the answer of the apply that made them; kept nowhere.
    member_tokens: list[dict] = field(default_factory=list)
    link_urls: dict[str, str] = field(default_factory=dict)


def _pause_for_tests() -> None:
    seconds = os.environ.get(PAUSE_SECONDS_ENV)
    if not seconds:
        return
    marker = os.environ.get(PAUSE_MARKER_ENV)
    if marker:
        with open(marker, "w") as handle:
            handle.write(str(os.getpid()))
    time.sleep(float(seconds))


def _embedded_app_for(workspace: Workspace, redirect_uri: str | None) -> EmbeddedApp:
    existing = EmbeddedApp.objects.filter(workspace=workspace).select_related("application")
    app = existing.first()
    if app is not None:
        return app
    application = get_application_model().objects.create(
        name=f"Embedded app of {workspace.slug}",
        client_type="public",
        authorization_grant_type="authorization-code",
        redirect_uris=redirect_uri or f"{settings.BASE_URL}/app/callback",
        skip_authorization=False,
    )
    return EmbeddedApp.objects.create(workspace=workspace, application=application)


def _account_exists(email: str) -> bool:
    """Whether the email has an account anywhere in the service (any tenant)."""
    return get_user_model().objects.filter(email__iexact=email).exists()


def _new_user(email: str):
    """A new account for a new team member's email; it signs in through the embedded app."""
    User = get_user_model()
    fits = len(email) <= 150 and not User.objects.filter(username=email).exists()
    username = email if fits else None
    user = User(username=username or f"{email[:120]}-{secrets.token_hex(4)}", email=email)
    user.set_unusable_password()
    user.save()
    return user


def _apply_settings(workspace: Workspace, key: str, value) -> None:
    if key in {"name", "timezone", "working_days", "embedded_origins"}:
        setattr(workspace, key, value)
    elif key in {"logo", "colours", "labels", "modules"}:
        workspace.branding = {**(workspace.branding or {}), key: value}
    # embedded_redirect_uri is used when the embedded app is made.


def _workspace_create(agency: Agency, detail: dict) -> Workspace | None:
    """The new workspace, or None when its slug was taken concurrently."""
    try:
        with transaction.atomic():
            return Workspace.objects.create(
                agency=agency,
                name=detail["name"],
                slug=detail["slug"],
                currency=detail["currency"],
                timezone=detail["timezone"],
            )
    except IntegrityError:
        return None


def plan_apply(*, plan_id, actor: Actor, mint_member_tokens: bool = True) -> AppliedPlan:
    """Make every ready change of the plan in one transaction.

    Each change is checked again now; one that has become blocked is skipped and the
    result says why. New members get a session token each when mint_member_tokens (the
    API's apply, which can show them once); the worker's apply makes none. A team email
    that already has an account is invited instead (result.invited): it is not linked,
    gets no token, and becomes a member only when its owner accepts after signing in.
    """
    applied = AppliedPlan(plan=None)
    with transaction.atomic():
        plan = Plan.objects.select_for_update().select_related("agency").get(pk=plan_id)
        agency = plan.agency
        _require_agency_plan(agency)
        next_state = plan_next_state(plan, "apply")
        changes, workspace = plan_changes(agency=agency, body=plan.body)
        created = next(
            (c for c in changes if c["op"] == "workspace.create" and c["status"] == "ready"), None
        )
        if created is not None:
            workspace = _workspace_create(agency, created["detail"])
            if workspace is None:
                # Another transaction took the slug after the check: check everything again,
                # and the workspace (with all it holds) is now blocked.
                changes, workspace = plan_changes(agency=agency, body=plan.body)
                created = None
                for change in changes:
                    if change["status"] == "ready":
                        change.update(
                            status="blocked",
                            code="slug_taken",
                            reason=f"The slug {change['detail'].get('slug', '') or ''!r} "
                            "was taken while the plan was applied."
                            if change["op"] == "workspace.create"
                            else "The workspace cannot be created: its slug was taken.",
                        )
        ready = [c for c in changes if c["status"] == "ready"]
        settings_changes = {
            c["detail"]["key"]: c["detail"]["value"] for c in ready if c["op"] == "settings.update"
        }
        if created is not None:
            audit_record(
                actor=actor,
                action="workspace.created",
                target_type="workspace",
                target_id=workspace.pk,
                workspace=workspace,
                agency=agency,
                detail={"plan": str(plan.pk), "slug": workspace.slug},
            )
        _pause_for_tests()
        if workspace is not None and settings_changes:
            for key, value in settings_changes.items():
                _apply_settings(workspace, key, value)
            workspace.save()
            audit_record(
                actor=actor,
                action="workspace.settings_changed",
                target_type="workspace",
                target_id=workspace.pk,
                workspace=workspace,
                agency=agency,
                detail={"plan": str(plan.pk), "settings": sorted(settings_changes)},
            )
        programmes = [c["detail"] for c in ready if c["op"].startswith("programme.")]
        if workspace is not None and programmes:
            listed = {p.get("name"): p for p in (workspace.branding or {}).get("programmes", [])}
            for programme in programmes:
                listed[programme["name"]] = {
                    "name": programme["name"],
                    "price_minor": _price_minor(programme["price"], workspace.currency_exponent),
                }
            workspace.branding = {**(workspace.branding or {}), "programmes": list(listed.values())}
            workspace.save(update_fields=["branding"])
            audit_record(
                actor=actor,
                action="workspace.programmes_changed",
                target_type="workspace",
                target_id=workspace.pk,
                workspace=workspace,
                agency=agency,
                detail={"plan": str(plan.pk), "programmes": [p["name"] for p in programmes]},
            )

        members = []
        invited = []
        team = [c["detail"] for c in ready if c["op"] == "member.add"]
        app = None
        if workspace is not None and (team or created is not None):
            app = _embedded_app_for(workspace, settings_changes.get("embedded_redirect_uri"))
        for person in team:
            if _account_exists(person["email"]):
                # Never linked without its owner: they accept the invitation after signing in.
                invitation_create(
                    workspace=workspace,
                    email=person["email"],
                    name=person["name"],
                    role=person["role"],
                    plan_id=plan.pk,
                    actor=actor,
                    agency=agency,
                )
                invited.append({"email": person["email"], "role": person["role"]})
                continue
            member = Member.objects.create(
                workspace=workspace,
                user=_new_user(person["email"]),
                name=person["name"],
                email=person["email"],
                role=person["role"],
                joined_at=timezone.localdate(),
            )
            audit_record(
                actor=actor,
                action="member.added",
                target_type="member",
                target_id=member.pk,
                workspace=workspace,
                agency=agency,
                detail={"plan": str(plan.pk), "email": member.email, "role": member.role},
            )
            brief = {"member_id": str(member.pk), "email": member.email, "role": member.role}
            members.append(brief)
            if mint_member_tokens:
                token = session_token_mint(actor=actor, member=member, embedded_app=app)
                applied.member_tokens.append({**brief, "token": token})

        links = []
        for change in ready:
            if change["op"] != "integration.connect":
                continue
            link, url = connect_link_create(
                agency=agency,
                workspace=workspace,
                integrations=[change["target"]],
                expires_in_hours=DEFAULT_LINK_HOURS,
                actor=actor,
                plan=plan,
            )
            applied.link_urls[str(link.pk)] = url
            links.append(
                {
                    "id": str(link.pk),
                    "integrations": link.integrations,
                    "expires_at": link.expires_at.isoformat().replace("+00:00", "Z"),
                }
            )

        for change in changes:
            if change["status"] == "ready":
                change["status"] = "applied"
        now = timezone.now()
        plan.state = next_state
        plan.workspace = workspace
        plan.applied_at = now
        plan.updated_at = now
        plan.result = {
            "changes": changes,
            "workspace_id": str(workspace.pk) if workspace is not None else None,
            "members": members,
            "invited": invited,
            "connect_links": links,
        }
        plan.save(update_fields=["state", "workspace", "applied_at", "updated_at", "result"])
        audit_record(
            actor=actor,
            action="plan.applied",
            target_type="plan",
            target_id=plan.pk,
            agency=agency,
            workspace=workspace,
            detail={
                "applied": sum(1 for c in changes if c["status"] == "applied"),
                "blocked": sum(1 for c in changes if c["status"] == "blocked"),
                "member_tokens_issued": bool(applied.member_tokens),
                "invited": len(invited),
            },
        )
    applied.plan = plan
    return applied


# --- Blueprints ---------------------------------------------------------------------------


def blueprint_put(
    *, agency: Agency, actor: Actor, key: str, parsed: dict
) -> tuple[Blueprint, bool]:
    """Create or replace the blueprint under key; True when it was created."""
    _require_agency_plan(agency)
    body = {k: parsed[k] for k in ("settings", "team", "programmes", "integrations")}
    with transaction.atomic():
        blueprint = Blueprint.objects.select_for_update().filter(agency=agency, key=key).first()
        created = blueprint is None
        now = timezone.now()
        if created:
            blueprint = Blueprint.objects.create(
                agency=agency,
                key=key,
                name=parsed["name"],
                body=body,
                created_at=now,
                updated_at=now,
            )
        else:
            blueprint.name, blueprint.body, blueprint.updated_at = parsed["name"], body, now
            blueprint.save(update_fields=["name", "body", "updated_at"])
        audit_record(
            actor=actor,
            action="blueprint.created" if created else "blueprint.replaced",
            target_type="blueprint",
            target_id=key,
            agency=agency,
            detail={"name": blueprint.name},
        )
    return blueprint, created


# --- Connect links and connections ------------------------------------------------------


def connect_link_create(
    *,
    agency: Agency,
    workspace: Workspace,
    integrations: list[str],
    expires_in_hours: int,
    actor: Actor,
    plan: Plan | None = None,
) -> tuple[ConnectLink, str]:
    """Make a link; its URL is returned here and never again (only its digest is kept)."""
    secret = secrets.token_urlsafe(32)
    with transaction.atomic():
        link = ConnectLink.objects.create(
            agency=agency,
            workspace=workspace,
            digest=link_digest(secret),
            integrations=list(integrations),
            expires_at=timezone.now() + timedelta(hours=expires_in_hours),
            plan=plan,
            created_by=actor.label,
        )
        audit_record(
            actor=actor,
            action="connect_link.created",
            target_type="connect_link",
            target_id=link.pk,
            workspace=workspace,
            agency=agency,
            detail={"integrations": link.integrations, "expires_at": link.expires_at.isoformat()},
        )
    return link, f"{settings.BASE_URL}{LINK_PATH}{secret}"


def connect_link_revoke(*, link: ConnectLink, actor: Actor) -> ConnectLink:
    """Stop the link opening; connections it already made stay. Revoking twice is a no-op."""
    with transaction.atomic():
        link = ConnectLink.objects.select_for_update().get(pk=link.pk)
        if link.revoked_at is None:
            link.revoked_at = timezone.now()
            link.save(update_fields=["revoked_at"])
            audit_record(
                actor=actor,
                action="connect_link.revoked",
                target_type="connect_link",
                target_id=link.pk,
                workspace=link.workspace,
                agency=link.agency,
            )
    return link


class LinkClosed(Exception):
    """The link no longer opens: expired, revoked or completed (the attribute says which)."""

    def __init__(self, why: str):
        self.why = why
        super().__init__(why)


def link_closed_reason(link: ConnectLink, connected: set[str]) -> str | None:
    if link.revoked_at is not None:
        return "revoked"
    if link.expires_at <= timezone.now():
        return "expired"
    if set(link.integrations) <= connected:
        return "completed"
    return None


def connection_create(*, link: ConnectLink, integration_key: str, values: dict) -> dict:
    """Connect one offered integration with a client's credential; returns format errors by
    field name, if any. The connection (integrations.Connection) has the id the page showed
    in its webhook URL; the credential is stored encrypted and never shown again.
    """
    integration = integration_get(integration_key)
    with transaction.atomic():
        link = ConnectLink.objects.select_for_update().select_related("workspace").get(pk=link.pk)
        connected = set(link.connections.values_list("provider", flat=True))
        closed = link_closed_reason(link, connected)
        if closed:
            raise LinkClosed(closed)
        if integration is None or integration_key not in link.integrations:
            return {"integration": "Choose one of the integrations this link offers."}
        if integration_key in connected:
            return {"integration": f"{integration.name} is already connected through this link."}
        _clean, errors = credentials_check(integration, values)
        if errors:
            return errors
        connection = integration_connection_create(
            workspace=link.workspace,
            provider=integration_key,
            credentials=values,
            actor=Actor(kind="connect_link", id=str(link.pk), label="connect link"),
            connection_id=connection_id_for_link(link_id=link.pk, provider=integration_key),
            created_by=f"connect link {link.pk}",
        )
        link.connections.add(connection)
    return {}
