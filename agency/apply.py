"""Applying a plan: every change still ready when it is checked again, made in one
transaction with an audit event for each, a change that has become blocked skipped with
the reason in the result; called by the API's apply (which shows new members' tokens and
the links' URLs once) and by the worker's task once a person approved the plan (which
makes no token).
"""

from dataclasses import dataclass, field

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.services import Actor, audit_record
from core.testing_hooks import pause_for_tests
from core.times import utc_iso
from events.services import event_record
from tokens.models import EmbeddedApp
from tokens.services import embedded_app_create, session_token_mint
from workspaces.invitations import invitation_create
from workspaces.models import Agency, Workspace
from workspaces.tenancy import (
    account_exists,
    member_add,
    user_create,
    workspace_create,
    workspace_update,
)

from .links import DEFAULT_LINK_HOURS, connect_link_create
from .models import Plan
from .plans import agency_plan_require, plan_changes, plan_next_state, price_minor

# Test-only hook: makes an apply pause inside its transaction, so a test can kill the
# process half-way and see that nothing of the plan was kept.
PAUSE_SECONDS_ENV = "AGENCY_APPLY_PAUSE_SECONDS"
PAUSE_MARKER_ENV = "AGENCY_APPLY_PAUSE_MARKER"


@dataclass
class AppliedPlan:
    """The applied plan, and what its apply shows once and keeps nowhere.

    Reads through to the plan, so the apply's answer is rendered from it like any plan's;
    its result adds the members' tokens and the links' URLs.
    """

    plan: Plan
    member_tokens: list[dict] = field(default_factory=list)
    link_urls: dict[str, str] = field(default_factory=dict)

    def __getattr__(self, name):
        if name == "plan":
            raise AttributeError(name)
        return getattr(self.plan, name)

    @property
    def result(self) -> dict:
        result = dict(self.plan.result)
        result["member_tokens"] = self.member_tokens
        result["connect_links"] = [
            {**link, "url": self.link_urls[link["id"]]} for link in result.get("connect_links", [])
        ]
        return result


def _embedded_app_for(workspace: Workspace, redirect_uri: str | None, actor: Actor) -> EmbeddedApp:
    """The workspace's embedded app, through which new members sign in; made if it has none."""
    app = EmbeddedApp.objects.filter(workspace=workspace).select_related("application").first()
    if app is not None:
        return app
    return embedded_app_create(
        actor=actor,
        workspace=workspace,
        name=f"Embedded app of {workspace.slug}",
        redirect_uris=[redirect_uri or f"{settings.BASE_URL}/app/callback"],
    )


def _workspace_create(agency: Agency, detail: dict) -> Workspace | None:
    """The new workspace, or None when its slug was taken concurrently."""
    try:
        with transaction.atomic():
            return workspace_create(
                agency=agency,
                name=detail["name"],
                slug=detail["slug"],
                currency=detail["currency"],
                timezone=detail["timezone"],
            )
    except IntegrityError:
        return None


def _all_blocked_by_slug_race(changes: list[dict]) -> None:
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


@dataclass
class _Apply:
    """One apply in progress: the locked plan, its checked changes and what they made."""

    plan: Plan
    actor: Actor
    changes: list[dict]
    workspace: Workspace | None
    created: bool = False
    members: list[dict] = field(default_factory=list)
    invited: list[dict] = field(default_factory=list)
    links: list[dict] = field(default_factory=list)

    @property
    def agency(self) -> Agency:
        return self.plan.agency

    def ready(self, *ops: str) -> list[dict]:
        return [c for c in self.changes if c["status"] == "ready" and c["op"] in ops]

    def audit(self, action: str, target_type: str, target_id, **detail) -> None:
        audit_record(
            actor=self.actor,
            action=action,
            target_type=target_type,
            target_id=target_id,
            workspace=self.workspace,
            agency=self.agency,
            detail={"plan": str(self.plan.pk), **detail},
        )


def _workspace_make(run: _Apply) -> None:
    """Create the plan's new workspace; a slug taken since the check blocks everything."""
    [created] = run.ready("workspace.create") or [None]
    if created is None:
        return
    run.workspace = _workspace_create(run.agency, created["detail"])
    if run.workspace is None:
        # Another transaction took the slug after the check: check everything again,
        # and the workspace (with all it holds) is now blocked.
        run.changes, run.workspace = plan_changes(agency=run.agency, body=run.plan.body)
        _all_blocked_by_slug_race(run.changes)
        return
    run.created = True
    run.audit("workspace.created", "workspace", run.workspace.pk, slug=run.workspace.slug)


def _settings_make(run: _Apply, settings_changes: dict) -> None:
    # embedded_redirect_uri is used when the embedded app is made.
    changes = {k: v for k, v in settings_changes.items() if k != "embedded_redirect_uri"}
    if run.workspace is None or not changes:
        return
    workspace_update(
        workspace=run.workspace,
        changes=changes,
        actor=run.actor,
        agency=run.agency,
        detail={"plan": str(run.plan.pk), "settings": sorted(settings_changes)},
    )


def _programmes_make(run: _Apply) -> None:
    programmes = [c["detail"] for c in run.ready("programme.add", "programme.update")]
    if run.workspace is None or not programmes:
        return
    workspace = run.workspace
    listed = {p.get("name"): p for p in (workspace.branding or {}).get("programmes", [])}
    for programme in programmes:
        listed[programme["name"]] = {
            "name": programme["name"],
            "price_minor": price_minor(programme["price"], workspace.currency_exponent),
        }
    workspace_update(
        workspace=workspace,
        changes={"programmes": list(listed.values())},
        actor=run.actor,
        action="workspace.programmes_changed",
        agency=run.agency,
        detail={"plan": str(run.plan.pk), "programmes": [p["name"] for p in programmes]},
    )


def _team_make(run: _Apply, app: EmbeddedApp | None, applied: AppliedPlan, mint: bool) -> None:
    """The plan's team: on a workspace the plan creates, each new person is a member at once
    (with a session token when mint) and is mailed a link to choose a password; on a
    workspace that already exists, everyone is proposed (result.invited) and gets no token:
    the proposal waits for an active owner of the workspace to approve it, and nothing
    reaches the person before, so that an agency's plan never reaches that workspace's data
    or its people on its own. An email that already has an account is always invited, never
    linked."""
    for person in [c["detail"] for c in run.ready("member.add")]:
        invite = {
            "workspace": run.workspace,
            "email": person["email"],
            "name": person["name"],
            "role": person["role"],
            "plan_id": run.plan.pk,
            "actor": run.actor,
            "agency": run.agency,
        }
        if not run.created or account_exists(person["email"]):
            invitation_create(**invite, proposed=not run.created)
            run.invited.append({"email": person["email"], "role": person["role"]})
            continue
        member = member_add(
            workspace=run.workspace,
            user=user_create(email=person["email"]),
            email=person["email"],
            name=person["name"],
            role=person["role"],
            actor=run.actor,
            agency=run.agency,
            detail={"plan": str(run.plan.pk)},
        )
        invitation_create(**invite, member=member)
        brief = {"member_id": str(member.pk), "email": member.email, "role": member.role}
        run.members.append(brief)
        if mint:
            token = session_token_mint(actor=run.actor, member=member, embedded_app=app)
            applied.member_tokens.append({**brief, "token": token})


def _links_make(run: _Apply, applied: AppliedPlan) -> None:
    for change in run.ready("integration.connect"):
        link, url = connect_link_create(
            agency=run.agency,
            workspace=run.workspace,
            integrations=[change["target"]],
            expires_in_hours=DEFAULT_LINK_HOURS,
            actor=run.actor,
            plan=run.plan,
        )
        applied.link_urls[str(link.pk)] = url
        run.links.append(
            {
                "id": str(link.pk),
                "integrations": link.integrations,
                "expires_at": utc_iso(link.expires_at),
            }
        )


def _plan_close(run: _Apply, next_state: str, tokens_issued: bool) -> Plan:
    plan, changes, workspace = run.plan, run.changes, run.workspace
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
        "members": run.members,
        "invited": run.invited,
        "connect_links": run.links,
    }
    plan.save(update_fields=["state", "workspace", "applied_at", "updated_at", "result"])
    audit_record(
        actor=run.actor,
        action="plan.applied",
        target_type="plan",
        target_id=plan.pk,
        agency=run.agency,
        workspace=workspace,
        detail={
            "applied": sum(1 for c in changes if c["status"] == "applied"),
            "blocked": sum(1 for c in changes if c["status"] == "blocked"),
            "member_tokens_issued": tokens_issued,
            "invited": len(run.invited),
        },
    )
    if workspace is not None:
        event_record(workspace=workspace, type="plan.applied", data=_plan_shape(plan))
    return plan


def _plan_shape(plan: Plan) -> dict:
    """The plan as its `plan.applied` event carries it: what changed, never a token or a
    connect link's secret."""
    return {
        "id": str(plan.pk),
        "agency_id": str(plan.agency_id),
        "state": plan.state,
        "applied_at": utc_iso(plan.applied_at),
        "changes": [
            {key: change[key] for key in ("op", "target", "status", "reason") if key in change}
            for change in plan.result.get("changes", [])
        ],
        "invited": [
            {"email": entry.get("email"), "role": entry.get("role")}
            for entry in plan.result.get("invited", [])
        ],
    }


def plan_apply(*, plan_id, actor: Actor, mint_member_tokens: bool = True) -> AppliedPlan:
    """Make every ready change of the plan in one transaction.

    Each change is checked again now; one that has become blocked is skipped and the
    result says why. New members of a workspace the plan creates get a session token each
    when mint_member_tokens (the API's apply, which can show them once); the worker's apply
    makes none. On a workspace that already exists every team entry is invited instead
    (result.invited), with no token; so is a team email that already has an account: it is
    not linked, and becomes a member only when its owner accepts.
    """
    with transaction.atomic():
        plan = Plan.objects.select_for_update().select_related("agency").get(pk=plan_id)
        agency_plan_require(plan.agency)
        next_state = plan_next_state(plan, "apply")
        changes, workspace = plan_changes(agency=plan.agency, body=plan.body)
        run = _Apply(plan=plan, actor=actor, changes=changes, workspace=workspace)
        applied = AppliedPlan(plan=plan)
        _workspace_make(run)
        settings_changes = {
            c["detail"]["key"]: c["detail"]["value"] for c in run.ready("settings.update")
        }
        pause_for_tests(PAUSE_SECONDS_ENV, PAUSE_MARKER_ENV)
        _settings_make(run, settings_changes)
        _programmes_make(run)
        app = None
        if run.workspace is not None and run.created:
            redirect_uri = settings_changes.get("embedded_redirect_uri")
            app = _embedded_app_for(run.workspace, redirect_uri, actor)
        _team_make(run, app, applied, mint_member_tokens)
        _links_make(run, applied)
        applied.plan = _plan_close(run, next_state, bool(applied.member_tokens))
    return applied
