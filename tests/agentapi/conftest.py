"""A workspace with one member of each role, their session tokens and the API tokens,
plus a second workspace to try to reach; and small helpers for writes."""

import itertools
import uuid
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.utils import timezone

from agentapi.models import ChangeLogEntry, Draft, FormSubmission
from audit.models import AuditEvent
from core.models import IdempotencyRecord
from workspaces.models import Call, EodReport, Instalment, Lead, Outcome, Payment, Sale

ROLES = ("owner", "admin", "manager", "closer", "setter", "sdr")
_keys = itertools.count(1)


def new_key() -> str:
    return f"test-key-{next(_keys):06d}-{uuid.uuid4().hex[:8]}"


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def team(make_agency, make_workspace, make_member, workspace_token, agency_token, session_token):
    """Everything a denial matrix needs, in one namespace."""
    agency = make_agency(tier="agency")
    workspace = make_workspace(agency=agency, name="Northwind", currency="USD")
    other = make_workspace(agency=agency, name="Southwind", currency="EUR")
    foreign_agency = make_agency(tier="agency")
    members = {role: make_member(workspace, role) for role in ROLES}
    other_closer = make_member(other, "closer")
    return SimpleNamespace(
        agency=agency,
        workspace=workspace,
        other=other,
        members=members,
        other_closer=other_closer,
        read_token=workspace_token(workspace, scopes=("read",), name="reader"),
        write_token=workspace_token(workspace, scopes=("read", "data:write"), name="writer"),
        write_only_token=workspace_token(workspace, scopes=("data:write",), name="write only"),
        other_write_token=workspace_token(other, scopes=("read", "data:write"), name="other"),
        sessions={role: session_token(member) for role, member in members.items()},
        other_closer_session=session_token(other_closer),
        agency_full=agency_token(agency),
        agency_read=agency_token(agency, scopes=("read",), name="agency read"),
        agency_plan=agency_token(agency, scopes=("config:plan",), name="agency plan"),
        foreign_agency_full=agency_token(foreign_agency, name="foreign"),
    )


@pytest.fixture
def make_call(db):
    def make(workspace, *, closer=None, setter=None, scheduled_for=None, lead=None, **extra):
        now = timezone.now()
        lead = lead or Lead.objects.create(
            workspace=workspace,
            name="Dana Reyes",
            email=f"dana{uuid.uuid4().hex[:6]}@example.test",
            created_at=now - timedelta(days=3),
        )
        return Call.objects.create(
            workspace=workspace,
            lead=lead,
            booked_at=now - timedelta(days=2),
            scheduled_for=scheduled_for or now - timedelta(hours=1),
            closer=closer,
            setter=setter,
            **extra,
        )

    return make


@pytest.fixture
def write(api):
    """write(token, path, body, key=None, **headers) -> response of a POST with a key."""

    def send(token, path, body, key=None, **headers):
        if key is not False:
            headers["HTTP_IDEMPOTENCY_KEY"] = key or new_key()
        return api(token, **headers).post(path, body, format="json")

    return send


TRACKED = (
    ChangeLogEntry,
    Draft,
    FormSubmission,
    Call,
    Outcome,
    Sale,
    Instalment,
    Payment,
    EodReport,
    Lead,
    IdempotencyRecord,
    AuditEvent,
)


def snapshot() -> dict:
    """Row counts and the call columns a form writes: equal snapshots mean nothing changed."""
    counts = {model.__name__: model.objects.count() for model in TRACKED}
    calls = sorted(
        Call.objects.values_list("id", "attendance", "offer_made", "outcome").order_by("id")
    )
    drafts = sorted(Draft.objects.values_list("id", "status").order_by("id"))
    eods = sorted(EodReport.objects.values_list("id", "fields").order_by("id"), key=str)
    return {"counts": counts, "calls": calls, "drafts": drafts, "eods": eods}
