"""The demo: two agencies, their workspaces, members who can sign in, tokens, and about
four months of realistic records up to today.

Records are drawn from ``random.Random(seed)``: for one seed, the same records in the
same numbers. Whether a record lies in the past or the future is drawn too (as a day
offset from today), never read from the clock, so the counts do not depend on the time
of day the demo is made. Tokens and ids are random. The records of each workspace are
drawn and written by demo/records.py; its agencies, members, tokens and goals are made here.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.utils import timezone
from oauth2_provider.models import get_access_token_model

from audit.services import Actor, audit_record
from core.ids import parse_uuid
from core.times import local_today
from tokens.models import AGENCY_SCOPES, EmbeddedApp
from tokens.services import embedded_app_create, session_token_mint, token_mint
from workspaces.models import Agency, Goal, Member
from workspaces.services import goals_replace
from workspaces.tenancy import (
    agency_create,
    agency_user_add,
    member_add,
    user_create,
    workspace_create,
)

from .records import RecordsBuilder, WorkspacePlan

DEMO_ACTOR = Actor(kind="command", id="seed_demo", label="manage.py seed_demo")
DEMO_PASSWORD = "demo-password-2026"
ROLES = ("owner", "admin", "manager", "closer", "setter", "sdr")

AGENCY_TOKEN_SCOPES = {
    "full": list(AGENCY_SCOPES),
    "no_apply": [scope for scope in AGENCY_SCOPES if scope != "config:apply"],
    "read": ["read"],
}
WORKSPACE_TOKEN_SCOPES = {"read": ["read"], "write": ["read", "data:write"]}

AGENCY_WORKSPACES = (
    WorkspacePlan(
        key="northwind",
        name="Northwind Coaching",
        currency="USD",
        timezone="America/New_York",
        prices=(2500, 4000, 6000, 9500),
        people={
            "owner": "Olivia Brooks",
            "admin": "Adam Reyes",
            "manager": "Maya Patel",
            "closer": "Carlos Diaz",
            "setter": "Sara Kim",
            "sdr": "Dylan Ward",
        },
    ),
    WorkspacePlan(
        key="lindenhof",
        name="Lindenhof Akademie",
        currency="EUR",
        timezone="Europe/Berlin",
        prices=(1800, 3200, 5400),
        people={
            "owner": "Johanna Weber",
            "admin": "Felix Hartmann",
            "manager": "Lea Schubert",
            "closer": "Jonas Becker",
            "setter": "Mia Wagner",
            "sdr": "Paul Richter",
        },
        locale="de",
    ),
)
STARTER_WORKSPACES = (
    WorkspacePlan(
        key="harbour",
        name="Harbour Studio",
        currency="GBP",
        timezone="Europe/London",
        prices=(1200, 2400),
        people={
            "owner": "Grace Hughes",
            "admin": "Oliver Price",
            "manager": "Amelia Ward",
            "closer": "Harry Evans",
            "setter": "Isla Morgan",
            "sdr": "Noah Clarke",
        },
        scale=0.4,
    ),
)


# --- the demo ------------------------------------------------------------------------

# This month's goals of a demo workspace (counts, or money in major units), before its scale:
# the workspace's, and its closer's and setter's.
DEMO_GOALS = (
    (None, "leads.created", 130),
    (None, "calls.taken", 45),
    (None, "payments.cash_collected", 90_000),
    ("closer", "calls.taken", 30),
    ("closer", "payments.cash_collected", 60_000),
    ("setter", "calls.booked", 40),
)


def _goals_set(workspace, members: dict, scale: float, now: datetime) -> None:
    """The month's goals through their one writer, as an owner would set them."""
    goals = []
    for role, metric, target in DEMO_GOALS:
        amount = round(target * scale)
        if metric in Goal.MONEY_METRICS:
            amount *= 10**workspace.currency_exponent
        goals.append({"metric": metric, "member": members.get(role), "target": amount})
    goals_replace(
        workspace=workspace,
        month=local_today(workspace, now).replace(day=1),
        goals=goals,
        actor=DEMO_ACTOR,
        by_role=None,
    )


class _Passwords:
    """Each demo account's password: the published DEMO_PASSWORD (hashed once), or, for a
    demo made under production settings, a random one per account, remembered here for the
    one output that shows it."""

    def __init__(self, random_passwords: bool):
        self.random = random_passwords
        self.given: dict[str, str] = {}
        self._shared = None if random_passwords else make_password(DEMO_PASSWORD)

    def user(self, email: str, name: str):
        if self.random:
            password = secrets.token_urlsafe(15)
            password_hash = make_password(password)
        else:
            password, password_hash = DEMO_PASSWORD, self._shared
        self.given[email] = password
        return user_create(email=email, name=name, password_hash=password_hash)


def _tokens(owner_kwargs: dict, scopes_by_name: dict, label: str) -> dict:
    return {
        name: token_mint(
            actor=DEMO_ACTOR, name=f"Demo {label} {name}", scopes=scopes, **owner_kwargs
        ).plaintext
        for name, scopes in scopes_by_name.items()
    }


def _workspace(plan, agency, suffix, rng, now, passwords: _Passwords) -> tuple[dict, dict]:
    origin = settings.BASE_URL
    redirect_uri = f"{settings.BASE_URL}/demo-app/callback"
    workspace = workspace_create(
        agency=agency,
        name=plan.name,
        slug=f"{plan.key}-{suffix}",
        currency=plan.currency,
        timezone=plan.timezone,
        locale=plan.locale,
        embedded_origins=[origin],
    )
    embedded_app = embedded_app_create(
        actor=DEMO_ACTOR,
        workspace=workspace,
        name=f"{plan.name} app",
        redirect_uris=[redirect_uri],
        allowed_origins=[origin],
    )
    today = local_today(plan, now)
    members = {}
    for role in ROLES:
        name = plan.people[role]
        email = f"{role}@{workspace.slug}.example"
        joined = today - timedelta(days={"sdr": 60, "setter": 150}.get(role, 200))
        members[role] = member_add(
            workspace=workspace,
            user=passwords.user(email, name),
            name=name,
            email=email,
            role=role,
            joined_at=joined,
            external_id=f"demo-member-{role}",
            actor=None,
        )
    builder = RecordsBuilder(workspace, plan, members, rng, now)
    builder.build()
    counts = builder.write()
    _goals_set(workspace, members, plan.scale, now)
    audit_record(
        actor=DEMO_ACTOR,
        action="demo.seeded",
        target_type="workspace",
        target_id=workspace.pk,
        workspace=workspace,
        detail={"records": counts},
    )
    entry = {
        "id": str(workspace.pk),
        "slug": workspace.slug,
        "currency": workspace.currency,
        "timezone": workspace.timezone,
        "agency_id": str(agency.pk),
        "tokens": _tokens({"workspace": workspace}, WORKSPACE_TOKEN_SCOPES, workspace.slug),
        "embedded_app": {
            "client_id": embedded_app.application.client_id,
            "redirect_uri": redirect_uri,
            "origin": origin,
        },
        "members": [
            {
                "id": str(member.pk),
                "role": role,
                "email": member.email,
                "password": passwords.given[member.email],
                "session_token": session_token_mint(
                    actor=DEMO_ACTOR, member=member, embedded_app=embedded_app
                ),
            }
            for role, member in members.items()
        ],
    }
    return entry, {"name": workspace.name, "records": counts}


def demo_create(
    *, seed: int = 1, now: datetime | None = None, random_passwords: bool = False
) -> tuple[dict, dict]:
    """Make a fresh demo. Returns (the demo JSON, extra facts for people to read).

    Every account signs in with DEMO_PASSWORD, which is published; with random_passwords
    (a demo under production settings) each has a random password of its own instead: the
    members' are in the JSON, and every account's in extra["passwords"] (email: password).
    """
    now = now or timezone.now()
    rng = random.Random(seed)
    suffix = secrets.token_hex(3)
    passwords = _Passwords(random_passwords)
    extra = {
        "password": None if random_passwords else DEMO_PASSWORD,
        "passwords": passwords.given,
        "workspaces": [],
        "agency_users": [],
    }
    with transaction.atomic():
        agency = agency_create(name="Summit Growth Partners", tier=Agency.Tier.AGENCY)
        starter = agency_create(name="Solo Sales Collective", tier=Agency.Tier.STARTER)
        for owner, key in ((agency, "agency"), (starter, "starter")):
            email = f"console@{key}-{suffix}.example"
            agency_user_add(agency=owner, user=passwords.user(email, f"{owner.name} Console"))
            extra["agency_users"].append(email)
        workspaces = []
        for owner, plans in ((agency, AGENCY_WORKSPACES), (starter, STARTER_WORKSPACES)):
            for plan in plans:
                # Each workspace draws from its own stream, so one never shifts another.
                ws_rng = random.Random(f"{seed}:{plan.key}")
                entry, facts = _workspace(plan, owner, suffix, ws_rng, now, passwords)
                workspaces.append(entry)
                extra["workspaces"].append(facts)
        del rng
        demo = {
            "base_url": settings.BASE_URL,
            "agency": {
                "id": str(agency.pk),
                "tier": agency.tier,
                "tokens": _tokens({"agency": agency}, AGENCY_TOKEN_SCOPES, "agency"),
            },
            "starter_agency": {
                "id": str(starter.pk),
                "tier": starter.tier,
                "tokens": _tokens({"agency": starter}, {"full": list(AGENCY_SCOPES)}, "starter"),
            },
            "workspaces": workspaces,
        }
    return demo, extra


def demo_exists(demo: dict) -> bool:
    """Whether the demo a saved JSON describes is still in this database."""
    try:
        agency_id = parse_uuid(demo["agency"]["id"])
    except (KeyError, TypeError):
        return False
    return agency_id is not None and Agency.objects.filter(pk=agency_id).exists()


def demo_sessions_renew(demo: dict) -> bool:
    """Mint new member session tokens where the saved ones expired (they last 30 days).

    Changes ``demo`` in place; answers whether anything was renewed.
    """
    renewed = False
    access_tokens = get_access_token_model().objects
    for ws in demo.get("workspaces", []):
        embedded_app = None
        for entry in ws.get("members", []):
            checksum = hashlib.sha256(entry["session_token"].encode("utf-8")).hexdigest()
            current = access_tokens.filter(token_checksum=checksum).first()
            if current is not None and not current.is_expired():
                continue
            member = Member.objects.filter(pk=entry["id"], user__isnull=False).first()
            if member is None:
                continue
            if embedded_app is None:
                embedded_app = EmbeddedApp.objects.get(
                    application__client_id=ws["embedded_app"]["client_id"]
                )
            with transaction.atomic():
                entry["session_token"] = session_token_mint(
                    actor=DEMO_ACTOR, member=member, embedded_app=embedded_app
                )
            renewed = True
    return renewed
