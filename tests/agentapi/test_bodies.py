"""What any body of either API must be (config/parsers.py, config/errors.py): at most
1 MiB, nested at most 32 levels, and no text a database cannot store. Each answers 400
in the error shape naming the field, after the token and access checks, and nothing is
written. Run on SQLite and PostgreSQL alike: PostgreSQL is where NUL used to fail."""

import json

import pytest
from django.test import Client

from agency.models import Blueprint, ConnectLink, Plan
from agentapi.models import ChangeLogEntry, Draft
from audit.models import AuditEvent
from core.models import IdempotencyRecord
from core.parsers import MAX_DEPTH
from workspaces.models import EodReport

from .conftest import new_key

pytestmark = pytest.mark.django_db

MIB = 1024 * 1024
CHANGE = {
    "effective_at": "2026-03-01T09:00:00-05:00",
    "kind": "price",
    "title": "Mastermind price up",
    "what": "From 5000 to 6000.",
}
PLAN = {
    "workspace": {"name": "Acme", "slug": "acme", "currency": "USD", "timezone": "UTC"},
    "team": [{"email": "ana@acme.test", "name": "Ana", "role": "closer"}],
}


def counts() -> dict:
    models = (
        ChangeLogEntry,
        Draft,
        EodReport,
        Plan,
        Blueprint,
        ConnectLink,
        IdempotencyRecord,
        AuditEvent,
    )
    return {model.__name__: model.objects.count() for model in models}


def send(token, method, path, text, **headers):
    """A request with a raw JSON text as its body (so it can be anything)."""
    if token:
        headers["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    headers.setdefault("HTTP_IDEMPOTENCY_KEY", new_key())
    return getattr(Client(), method.lower())(
        path, data=text, content_type="application/json", **headers
    )


def assert_refused(response, reason, field):
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["reason"] == reason
    assert response.json()["field"] == field


# Every write of both APIs, each with a NUL in one stored text.
def _writes(team):
    closer = str(team.members["closer"].pk)
    workspace = team.workspace.pk
    return {
        "draft": (
            team.write_token,
            "POST",
            "/api/v1/forms/drafts",
            {"form": "eod", "member_id": closer, "fields": {"fields": {"notes": "a\x00b"}}},
            "fields.fields.notes",
        ),
        "eod": (
            team.sessions["closer"],
            "POST",
            "/api/v1/forms/eod",
            {"fields": {"dials": 3, "notes": "\x00"}},
            "fields.notes",
        ),
        "change-log": (
            team.write_token,
            "POST",
            "/api/v1/change-log",
            {**CHANGE, "why": "because\x00"},
            "why",
        ),
        "agency change-log": (
            team.agency_full,
            "POST",
            f"/api/v1/workspaces/{workspace}/change-log",
            {**CHANGE, "title": "Price\x00"},
            "title",
        ),
        "plan team name": (
            team.agency_full,
            "POST",
            "/api/v1/plans",
            {**PLAN, "team": [{"email": "ana@acme.test", "name": "A\x00na", "role": "closer"}]},
            "team.0.name",
        ),
        "plan label": (
            team.agency_full,
            "POST",
            "/api/v1/plans",
            {**PLAN, "settings": {"labels": {"closer": "Clo\x00ser"}}},
            "settings.labels.closer",
        ),
        "blueprint": (
            team.agency_full,
            "PUT",
            "/api/v1/templates/coaching",
            {"name": "Coaching", "settings": {"modules": ["board", "x\x00"]}},
            "settings.modules.1",
        ),
        "connect link": (
            team.agency_full,
            "POST",
            f"/api/v1/workspaces/{workspace}/connect-links",
            {"integrations": ["stripe\x00"]},
            "integrations.0",
        ),
    }


WRITES = [
    "draft",
    "eod",
    "change-log",
    "agency change-log",
    "plan team name",
    "plan label",
    "blueprint",
    "connect link",
]


@pytest.mark.parametrize("name", WRITES)
def test_a_nul_in_any_stored_text_answers_400_naming_the_field(team, name):
    token, method, path, body, field = _writes(team)[name]
    before = counts()
    response = send(token, method, path, json.dumps(body))
    assert_refused(response, "invalid_field", field)
    assert "NUL character" in response.json()["error"]["message"]
    assert counts() == before


@pytest.mark.parametrize("name", WRITES)
def test_the_same_writes_without_the_nul_are_accepted(team, name):
    token, method, path, body, _ = _writes(team)[name]
    clean = json.loads(json.dumps(body).replace("\\u0000", ""))
    response = send(token, method, path, json.dumps(clean))
    assert response.status_code in {200, 201}, response.content


def test_a_nul_in_a_member_name_names_that_member(team):
    body = {"form": "eod", "member_id": str(team.members["closer"].pk), "fields": {"a\x00": 1}}
    before = counts()
    response = send(team.write_token, "POST", "/api/v1/forms/drafts", json.dumps(body))
    assert_refused(response, "invalid_field", "fields.a\x00")
    assert counts() == before


def test_half_a_surrogate_pair_is_refused_like_a_nul(team):
    text = json.dumps({"form": "eod", "member_id": str(team.members["closer"].pk)})
    text = text[:-1] + ', "fields": {"notes": "\\udc00"}}'
    before = counts()
    response = send(team.write_token, "POST", "/api/v1/forms/drafts", text)
    assert_refused(response, "invalid_field", "fields.notes")
    assert counts() == before


def _nested(levels: int, leaf=1):
    """{"a": {"a": ... leaf}} with `levels` objects in all."""
    value = leaf
    for _ in range(levels):
        value = {"a": value}
    return value


def test_a_body_nested_32_levels_is_read(team):
    # The body is level 1: 31 more objects make 32, and the field's own rule answers.
    response = send(
        team.write_token, "POST", "/api/v1/change-log", json.dumps({**CHANGE, "title": _nested(31)})
    )
    assert_refused(response, "invalid_field", "title")
    assert "levels" not in response.json()["error"]["message"]


def test_a_body_nested_33_levels_answers_400_naming_the_deep_member(team):
    before = counts()
    response = send(
        team.write_token, "POST", "/api/v1/change-log", json.dumps({**CHANGE, "title": _nested(32)})
    )
    assert_refused(response, "invalid_field", "title" + ".a" * 31)
    assert f"deeper than {MAX_DEPTH} levels" in response.json()["error"]["message"]
    assert counts() == before


@pytest.mark.parametrize(
    ("text", "field"),
    [
        # Too deep for the decoder itself: its RecursionError was a 500.
        ("[" * 995 + "]" * 995, ".".join(["0"] * 32)),
        ('{"x": [1, {"y": ' + "[" * 2000 + "]" * 2000 + "}]}", "x.1.y" + ".0" * 29),
        # Brackets and quotes inside strings are text, not nesting.
        (
            '{"a": "}]\\"", "b\\"[": ' + '{"k": ' * 1200 + "1" + "}" * 1201,
            'b"[.' + ".".join(["k"] * 31),
        ),
    ],
)
def test_a_body_nested_a_thousand_levels_answers_400_not_500(team, text, field):
    before = counts()
    response = send(team.write_token, "POST", "/api/v1/change-log", text)
    assert_refused(response, "invalid_field", field)
    assert counts() == before


def test_a_body_over_1_mib_answers_400_invalid_body_on_both_apis(team, settings):
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == MIB
    big = json.dumps({**CHANGE, "what": "x" * MIB})
    before = counts()
    for token, path in (
        (team.write_token, "/api/v1/change-log"),
        (team.agency_full, "/api/v1/plans"),
    ):
        response = send(token, "POST", path, big)
        assert_refused(response, "invalid_body", "body")
        assert "1 MiB (1048576 bytes)" in response.json()["error"]["message"]
    assert counts() == before


def test_a_body_of_exactly_1_mib_is_read(team):
    text = json.dumps({**CHANGE, "what": ""})
    text = text.replace('"what": ""', '"what": "' + "x" * (MIB - len(text)) + '"')
    assert len(text.encode()) == MIB
    response = send(team.write_token, "POST", "/api/v1/change-log", text)
    # Read, and refused by the field's own rule (5000 characters), not by the limit.
    assert_refused(response, "invalid_field", "what")


def test_a_body_over_1_mib_outside_drf_answers_the_error_shape():
    # The OAuth token endpoint reads its form body through Django itself.
    response = Client().post(
        "/o/token/",
        data="grant_type=" + "x" * MIB,
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["reason"] == "invalid_body"
    assert response.json()["field"] == "body"


# The order of checks: 401 and 403 come before any 400 about the body.
BAD_BODIES = {
    "nul": json.dumps({**CHANGE, "title": "\x00"}),
    "deep": "[" * 995 + "]" * 995,
    "too large": json.dumps({**CHANGE, "what": "x" * MIB}),
}


@pytest.mark.parametrize("bad", BAD_BODIES)
def test_401_comes_before_a_bad_body(team, bad):
    response = send(None, "POST", "/api/v1/change-log", BAD_BODIES[bad])
    assert response.status_code == 401
    assert response.json()["error"]["reason"] == "unauthenticated"


@pytest.mark.parametrize("bad", BAD_BODIES)
def test_403_comes_before_a_bad_body(team, bad):
    response = send(team.read_token, "POST", "/api/v1/change-log", BAD_BODIES[bad])
    assert response.status_code == 403
    assert response.json()["error"]["reason"] == "insufficient_scope"
    response = send(team.write_token, "POST", "/api/v1/plans", BAD_BODIES[bad])
    assert response.status_code == 403
    assert response.json()["error"]["reason"] == "token.not_agency"


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("/api/v1/funnel?funnel=a%00b", "funnel"),
        ("/api/v1/webinar?eventId=a%00b", "eventId"),
        ("/api/v1/calls?from=2026-03-0%00", "from"),
        ("/api/v1/leads?limit=1%00", "limit"),
        ("/api/v1/speed-to-lead?withinMinutes=%00", "withinMinutes"),
    ],
)
def test_a_nul_in_a_query_parameter_answers_400_naming_it(team, path, field):
    response = Client().get(path, HTTP_AUTHORIZATION=f"Bearer {team.read_token}")
    assert response.status_code == 400
    assert response.json()["error"]["reason"] == "invalid_parameter"
    assert response.json()["field"] == field


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/templates/a%00b",
        "/api/v1/plans/a%00b",
        "/api/v1/workspaces/{ws}/connect-links/a%00",
    ],
)
def test_a_nul_in_an_id_or_key_of_the_path_answers_404(team, path):
    path = path.format(ws=team.workspace.pk)
    response = Client().get(path, HTTP_AUTHORIZATION=f"Bearer {team.agency_full}")
    assert response.status_code == 404
    assert response.json()["error"]["reason"] == "not_found"


def test_a_nul_in_the_path_still_answers_401_first(team):
    response = Client().get("/api/v1/templates/a%00b")
    assert response.status_code == 401


@pytest.mark.parametrize("key", ["abcdefgh\x00ij", "abcdefgh\udc00ij", "abcdefgh\nij"])
def test_an_idempotency_key_that_is_not_printable_ascii_answers_400(team, key):
    before = counts()
    response = send(
        team.write_token, "POST", "/api/v1/change-log", json.dumps(CHANGE), HTTP_IDEMPOTENCY_KEY=key
    )
    assert response.status_code == 400
    assert response.json()["error"]["reason"] == "refused.idempotency_key_required"
    assert response.json()["field"] == "Idempotency-Key"
    assert counts() == before


SUBMISSION = "7b0c6f38-9a43-4a8f-8a41-6f0b8f3e2a11"


@pytest.mark.parametrize("call_id", [7, -1, 2**200, 1.5, True])
def test_a_call_id_that_is_a_number_is_400_naming_it(team, call_id):
    body = {"submission_id": SUBMISSION, "call_id": call_id, "attendance": "no_show"}
    response = send(team.sessions["closer"], "POST", "/api/v1/forms/post-call", json.dumps(body))
    assert_refused(response, "invalid_field", "call_id")


@pytest.mark.parametrize(
    ("path", "extra"),
    [
        (
            "/api/v1/forms/past-call",
            {"occurred_at": "2026-03-01T10:00:00Z", "attendance": "no_show"},
        ),
        (
            "/api/v1/forms/dm-close",
            {"platform": "instagram", "closed_at": "2026-03-01T10:00:00Z", "contract_value": "100"},
        ),
    ],
)
@pytest.mark.parametrize("lead_id", [7, 2**200, None])
def test_a_lead_id_that_is_no_uuid_string_is_400_naming_it(team, path, extra, lead_id):
    body = {"submission_id": SUBMISSION, "lead": {"id": lead_id}, **extra}
    response = send(team.sessions["closer"], "POST", path, json.dumps(body))
    assert_refused(response, "invalid_field", "lead.id")


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("/api/v1/leads?limit=", "limit"),
        ("/api/v1/speed-to-lead?withinMinutes=", "withinMinutes"),
    ],
)
def test_a_number_of_5000_digits_is_400_or_capped_never_500(team, path, name):
    response = Client().get(path + "9" * 5000, HTTP_AUTHORIZATION=f"Bearer {team.read_token}")
    assert response.status_code in {200, 400}, response.content
    if response.status_code == 400:
        assert response.json()["field"] == name
        assert "(5000 characters)" in response.json()["error"]["message"]
