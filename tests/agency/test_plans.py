"""Plans: checking (changes nothing), the state machine, apply in one transaction."""

import copy

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from oauth2_provider.models import get_access_token_model
from rest_framework.test import APIClient

from agency import apply
from agency.models import ConnectLink, Plan
from agency.plans import PLAN_TRANSITIONS
from agency.services import plan_decide
from audit.models import AuditEvent
from core.models import IdempotencyRecord
from tokens.models import EmbeddedApp
from workspaces.models import Member, Workspace

from .conftest import new_key, new_workspace_plan

pytestmark = pytest.mark.django_db


def _snapshot():
    return (
        Workspace.objects.count(),
        Member.objects.count(),
        ConnectLink.objects.count(),
        get_user_model().objects.count(),
        get_access_token_model().objects.count(),
    )


def test_create_plan_changes_nothing_and_lists_every_change(agency_world, write):
    before = _snapshot()
    response = write(agency_world.full, "POST", "/api/v1/plans", new_workspace_plan())
    assert response.status_code == 201
    body = response.json()
    assert body["state"] == "drafted"
    assert body["blueprint"] is None
    assert body["result"] == {
        "changes": [
            {
                "op": "workspace.create",
                "target": "acme",
                "detail": {
                    "name": "Acme Coaching",
                    "slug": "acme",
                    "currency": "USD",
                    "timezone": "America/New_York",
                },
                "status": "ready",
            },
            {
                "op": "member.add",
                "target": "ana@acme.test",
                "detail": {"email": "ana@acme.test", "name": "Ana Closer", "role": "closer"},
                "status": "ready",
            },
            {
                "op": "member.add",
                "target": "ben@acme.test",
                "detail": {"email": "ben@acme.test", "name": "Ben Owner", "role": "owner"},
                "status": "ready",
            },
            {
                "op": "programme.add",
                "target": "Mastermind",
                "detail": {"name": "Mastermind", "price": "4997.00"},
                "status": "ready",
            },
            {
                "op": "integration.connect",
                "target": "stripe",
                "detail": {"integration": "stripe"},
                "status": "ready",
            },
        ]
    }
    assert _snapshot() == before
    assert Plan.objects.get().state == "drafted"


def test_slug_taken_is_blocked_and_apply_skips_it_and_says_so(agency_world, write, make_workspace):
    make_workspace(slug="acme")  # some other tenant's workspace
    plan = write(agency_world.full, "POST", "/api/v1/plans", new_workspace_plan()).json()
    changes = plan["result"]["changes"]
    assert changes[0]["status"] == "blocked"
    assert changes[0]["code"] == "slug_taken"
    assert changes[0]["reason"] == "The slug 'acme' is already taken."
    # Everything that would live in that workspace is blocked with it.
    assert [c["status"] for c in changes[1:]] == ["blocked"] * 4
    assert {c["code"] for c in changes[1:]} == {"workspace_blocked"}

    before = _snapshot()
    applied = write(agency_world.full, "POST", f"/api/v1/plans/{plan['id']}/apply")
    assert applied.status_code == 200
    result = applied.json()["result"]
    assert applied.json()["state"] == "applied"
    assert [c["status"] for c in result["changes"]] == ["blocked"] * 5
    assert result["changes"][0]["reason"] == "The slug 'acme' is already taken."
    assert result["member_tokens"] == []
    assert result["connect_links"] == []
    assert result["workspace_id"] is None
    assert _snapshot() == before


def test_blocked_reasons_for_currency_timezone_member_integration(agency_world, write, make_member):
    make_member(agency_world.workspace, "closer", email="taken@example.test")
    body = {
        "workspace": {"id": str(agency_world.workspace.pk)},
        "settings": {"timezone": "Mars/Olympus"},
        "team": [
            {"email": "Taken@example.test", "name": "Dup", "role": "setter"},
            {"email": "new@example.test", "name": "New", "role": "sdr"},
            {"email": "NEW@example.test", "name": "New again", "role": "sdr"},
        ],
        "programmes": [{"name": "Course", "price": "10.005"}],
        "integrations": ["stripe", "mailchimp"],
    }
    changes = write(agency_world.full, "POST", "/api/v1/plans", body).json()["result"]["changes"]
    assert [(c["op"], c["target"], c["status"], c.get("code")) for c in changes] == [
        ("settings.update", "settings.timezone", "blocked", "timezone_unknown"),
        ("member.add", "taken@example.test", "blocked", "member_exists"),
        ("member.add", "new@example.test", "ready", None),
        ("member.add", "new@example.test", "blocked", "listed_twice"),
        ("programme.add", "Course", "blocked", "price_decimals"),
        ("integration.connect", "stripe", "ready", None),
        ("integration.connect", "mailchimp", "blocked", "integration_unknown"),
    ]

    bad_currency = new_workspace_plan(slug="fresh")
    bad_currency["workspace"]["currency"] = "XYZ"
    changes = write(agency_world.full, "POST", "/api/v1/plans", bad_currency).json()["result"][
        "changes"
    ]
    assert (changes[0]["status"], changes[0]["code"]) == ("blocked", "currency_unknown")
    bad_tz = new_workspace_plan(slug="fresh")
    bad_tz["workspace"]["timezone"] = "Nowhere/Town"
    changes = write(agency_world.full, "POST", "/api/v1/plans", bad_tz).json()["result"]["changes"]
    assert (changes[0]["status"], changes[0]["code"]) == ("blocked", "timezone_unknown")


def test_a_workspace_of_another_agency_is_blocked_not_revealed(
    agency_world, write, make_agency, make_workspace
):
    other = make_workspace(agency=make_agency())
    body = {"workspace": {"id": str(other.pk)}, "settings": {"name": "Mine now"}}
    changes = write(agency_world.full, "POST", "/api/v1/plans", body).json()["result"]["changes"]
    assert [(c["op"], c["status"], c["code"]) for c in changes] == [
        ("workspace.update", "blocked", "workspace_not_found"),
        ("settings.update", "blocked", "workspace_not_found"),
    ]


@pytest.mark.parametrize(
    "body, field",
    [
        ({"workspace": {"id": "x"}, "colour": "red"}, "colour"),
        ({"settings": {}}, "workspace"),
        ({"workspace": {"name": "A", "slug": "a", "currency": "USD", "size": 3}}, "workspace.size"),
        ({"workspace": {"name": "A", "slug": "Not A Slug", "currency": "USD"}}, "workspace.slug"),
        ({"workspace": {"slug": "a", "currency": "USD"}}, "workspace.name"),
        ({"workspace": {"id": "x"}, "settings": {"font": "x"}}, "settings.font"),
        ({"workspace": {"id": "x"}, "settings": {"working_days": [7]}}, "settings.working_days"),
        ({"workspace": {"id": "x"}, "team": [{"email": "a@b.test", "name": "A"}]}, "team.0.role"),
        (
            {"workspace": {"id": "x"}, "team": [{"email": "nope", "name": "A", "role": "closer"}]},
            "team.0.email",
        ),
        (
            {
                "workspace": {"id": "x"},
                "team": [{"email": "a@b.test", "name": "A", "role": "closer", "age": 3}],
            },
            "team.0.age",
        ),
        (
            {"workspace": {"id": "x"}, "programmes": [{"name": "P", "price": "ten"}]},
            "programmes.0.price",
        ),
        ({"workspace": {"id": "x"}, "integrations": "stripe"}, "integrations"),
        ({"workspace": {"id": "x"}, "blueprint": "Bad Key"}, "blueprint"),
        ({"workspace": {"id": "x"}, "blueprint": "missing"}, "blueprint"),
    ],
)
def test_unusable_plan_bodies_answer_400_naming_the_field(agency_world, write, body, field):
    response = write(agency_world.full, "POST", "/api/v1/plans", body)
    assert response.status_code == 400
    assert response.json()["error"]["reason"] == "invalid_field"
    assert response.json()["field"] == field
    assert Plan.objects.count() == 0


def test_400_comes_before_402(make_agency, agency_token, write):
    starter = make_agency(tier="starter")
    token = agency_token(starter)
    response = write(token, "POST", "/api/v1/plans", {"colour": "red"})
    assert response.status_code == 400
    response = write(token, "POST", "/api/v1/plans", new_workspace_plan())
    assert response.status_code == 402
    assert response.json()["error"]["reason"] == "tier.upgrade_required"
    assert Plan.objects.count() == 0


def test_apply_creates_everything_in_one_go_and_shows_secrets_once(agency_world, write):
    plan = write(agency_world.full, "POST", "/api/v1/plans", new_workspace_plan()).json()
    key = new_key()
    response = write(agency_world.full, "POST", f"/api/v1/plans/{plan['id']}/apply", key=key)
    assert response.status_code == 200
    body = response.json()
    assert body["state"] == "applied"
    result = body["result"]
    assert [c["status"] for c in result["changes"]] == ["applied"] * 5

    workspace = Workspace.objects.get(slug="acme")
    assert result["workspace_id"] == str(workspace.pk)
    assert (workspace.agency_id, workspace.currency, workspace.timezone) == (
        agency_world.agency.pk,
        "USD",
        "America/New_York",
    )
    assert workspace.branding["programmes"] == [{"name": "Mastermind", "price_minor": 499700}]
    app = EmbeddedApp.objects.get(workspace=workspace).application
    assert (app.client_type, app.authorization_grant_type) == ("public", "authorization-code")
    assert app.redirect_uris == "http://127.0.0.1:8000/app/callback"

    members = {m.email: m for m in Member.objects.filter(workspace=workspace)}
    assert {e: m.role for e, m in members.items()} == {
        "ana@acme.test": "closer",
        "ben@acme.test": "owner",
    }
    assert all(m.user is not None for m in members.values())
    tokens = result["member_tokens"]
    assert [(t["email"], t["role"]) for t in tokens] == [
        ("ana@acme.test", "closer"),
        ("ben@acme.test", "owner"),
    ]
    assert {t["member_id"] for t in tokens} == {str(m.pk) for m in members.values()}
    # A member's token works at once, as that member, in the new workspace.

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {tokens[0]['token']}")
    whoami = client.get("/api/v1/whoami")
    assert whoami.status_code == 200
    assert whoami.json()["workspace"] == {"id": str(workspace.pk)}

    [link] = result["connect_links"]
    assert link["integrations"] == ["stripe"]
    assert link["url"].startswith("http://127.0.0.1:8000/connect/")
    assert ConnectLink.objects.get().plan_id is not None

    # The read shows the result, never a token nor a link.
    shown = APIClient()
    shown.credentials(HTTP_AUTHORIZATION=f"Bearer {agency_world.full}")
    got = shown.get(f"/api/v1/plans/{plan['id']}")
    assert got.status_code == 200
    text = got.content.decode()
    assert all(t["token"] not in text for t in tokens)
    assert link["url"] not in text
    assert "member_tokens" not in got.json()["result"]
    assert got.json()["result"]["members"] == [
        {"member_id": t["member_id"], "email": t["email"], "role": t["role"]} for t in tokens
    ]

    # The same key replays the first answer; nothing is made twice.
    again = write(agency_world.full, "POST", f"/api/v1/plans/{plan['id']}/apply", key=key)
    assert again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == body
    assert Workspace.objects.filter(slug="acme").count() == 1
    assert Member.objects.filter(workspace=workspace).count() == 2
    # The stored answer carries secrets, so it is stored encrypted.
    stored = bytes(IdempotencyRecord.objects.get(key=key).response)
    assert tokens[0]["token"].encode() not in stored and link["url"].encode() not in stored

    # A new key on an applied plan: the state does not allow it.
    conflict = write(agency_world.full, "POST", f"/api/v1/plans/{plan['id']}/apply")
    assert conflict.status_code == 409
    assert conflict.json()["error"]["reason"] == "refused.plan_state"
    assert AuditEvent.objects.filter(action="plan.applied").count() == 1


def test_apply_rechecks_each_change_at_apply_time(agency_world, write, make_workspace):
    plan = write(agency_world.full, "POST", "/api/v1/plans", new_workspace_plan()).json()
    assert plan["result"]["changes"][0]["status"] == "ready"
    make_workspace(slug="acme")  # taken between the check and the apply
    result = write(agency_world.full, "POST", f"/api/v1/plans/{plan['id']}/apply").json()["result"]
    assert result["changes"][0]["status"] == "blocked"
    assert result["changes"][0]["code"] == "slug_taken"
    assert Workspace.objects.filter(slug="acme", agency=agency_world.agency).count() == 0


def test_apply_on_an_existing_workspace_changes_settings_and_adds_members(agency_world, write):
    body = {
        "workspace": {"id": str(agency_world.workspace.pk)},
        "settings": {
            "name": "Northwind Sales",
            "working_days": [0, 1, 2],
            "labels": {"calls": "Demos"},
        },
        "team": [{"email": "cy@northwind.test", "name": "Cy", "role": "setter"}],
        "programmes": [{"name": "Group", "price": 1200}],
    }
    plan = write(agency_world.full, "POST", "/api/v1/plans", body).json()
    result = write(agency_world.full, "POST", f"/api/v1/plans/{plan['id']}/apply").json()["result"]
    assert [c["status"] for c in result["changes"]] == ["applied"] * 5
    workspace = Workspace.objects.get(pk=agency_world.workspace.pk)
    assert workspace.name == "Northwind Sales"
    assert workspace.working_days == [0, 1, 2]
    assert workspace.branding["labels"] == {"calls": "Demos"}
    assert workspace.branding["programmes"] == [{"name": "Group", "price_minor": 120000}]
    # On a workspace that exists, the team is invited: no member yet, and no token.
    assert not Member.objects.filter(workspace=workspace, email="cy@northwind.test").exists()
    assert result["member_tokens"] == []
    assert result["invited"] == [{"email": "cy@northwind.test", "role": "setter"}]


def test_state_machine_table_and_409s(agency_world, write):
    assert PLAN_TRANSITIONS == {
        ("drafted", "request_approval"): "waiting_for_approval",
        ("waiting_for_approval", "approve"): "approved",
        ("waiting_for_approval", "refuse"): "refused",
        ("drafted", "apply"): "applied",
        ("approved", "apply"): "applied",
    }
    plan = write(agency_world.full, "POST", "/api/v1/plans", new_workspace_plan()).json()
    url = f"/api/v1/plans/{plan['id']}"
    asked = write(agency_world.no_apply, "POST", f"{url}/request-approval")
    assert asked.status_code == 200
    assert asked.json()["state"] == "waiting_for_approval"
    again = write(agency_world.no_apply, "POST", f"{url}/request-approval")
    assert again.status_code == 409
    assert again.json()["error"]["reason"] == "refused.plan_state"
    waiting = write(agency_world.full, "POST", f"{url}/apply")
    assert waiting.status_code == 409
    assert waiting.json()["error"]["reason"] == "refused.plan_state"
    assert Plan.objects.get().state == "waiting_for_approval"
    assert Workspace.objects.filter(slug="acme").count() == 0


def test_a_refused_plan_is_final(agency_world, write, django_user_model):
    person = django_user_model.objects.create_user("decider", "d@example.test", "pw-123456789")
    plan_id = write(agency_world.full, "POST", "/api/v1/plans", new_workspace_plan()).json()["id"]
    write(agency_world.full, "POST", f"/api/v1/plans/{plan_id}/request-approval")
    plan_decide(plan=Plan.objects.get(), user=person, approve=False, reason="Wrong currency")
    got = write(agency_world.full, "POST", f"/api/v1/plans/{plan_id}/apply")
    assert got.status_code == 409
    assert got.json()["error"]["reason"] == "refused.plan_state"
    for action in ("request-approval",):
        assert (
            write(agency_world.full, "POST", f"/api/v1/plans/{plan_id}/{action}").status_code == 409
        )

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {agency_world.full}")
    shown = client.get(f"/api/v1/plans/{plan_id}").json()
    assert (shown["state"], shown["refused_reason"]) == ("refused", "Wrong currency")


def test_a_plan_starts_from_a_blueprint(agency_world, write):
    blueprint = {
        "name": "Coaching team",
        "settings": {"timezone": "Europe/London", "modules": ["calls", "eod"]},
        "team": [{"email": "lead@coach.test", "name": "Lead", "role": "manager"}],
        "programmes": [{"name": "Core", "price": "100"}],
        "integrations": ["calendly"],
    }
    assert (
        write(agency_world.full, "PUT", "/api/v1/templates/coaching", blueprint).status_code == 201
    )
    body = new_workspace_plan(blueprint="coaching")
    body["settings"] = {"timezone": "Europe/Paris"}
    plan = write(agency_world.full, "POST", "/api/v1/plans", body).json()
    assert plan["blueprint"] == "coaching"
    changes = plan["result"]["changes"]
    assert [(c["op"], c["target"]) for c in changes] == [
        ("workspace.create", "acme"),
        ("settings.update", "settings.timezone"),
        ("settings.update", "settings.modules"),
        ("member.add", "lead@coach.test"),
        ("member.add", "ana@acme.test"),
        ("member.add", "ben@acme.test"),
        ("programme.add", "Core"),
        ("programme.add", "Mastermind"),
        ("integration.connect", "calendly"),
        ("integration.connect", "stripe"),
    ]
    assert changes[1]["detail"] == {"key": "timezone", "value": "Europe/Paris"}


def test_get_plan_and_list_agency_workspaces_answer_in_few_queries(
    agency_world, write, api, django_assert_max_num_queries, make_workspace, make_agency
):
    make_workspace(agency=agency_world.agency, slug="second", currency="GBP")
    make_workspace(agency=agency_world.agency, slug="gone", archived_at=timezone.now())
    make_workspace(agency=make_agency(), slug="not-ours")
    client = api(agency_world.read)
    with django_assert_max_num_queries(3):
        response = client.get("/api/v1/agency/workspaces")
    assert response.status_code == 200
    assert [(w["slug"], w["currency"], w["status"]) for w in response.json()["workspaces"]] == [
        ("northwind-one", "EUR", "active"),
        ("second", "GBP", "active"),
    ]
    assert set(response.json()["workspaces"][0]) == {
        "id",
        "name",
        "slug",
        "currency",
        "status",
        "created_at",
    }
    plan_id = write(agency_world.full, "POST", "/api/v1/plans", new_workspace_plan()).json()["id"]
    with django_assert_max_num_queries(3):
        got = api(agency_world.full).get(f"/api/v1/plans/{plan_id}")
    assert got.status_code == 200


def test_a_slug_taken_by_another_transaction_during_apply_blocks_it(
    agency_world, write, make_workspace, monkeypatch
):
    plan_id = write(agency_world.full, "POST", "/api/v1/plans", new_workspace_plan()).json()["id"]
    plan = Plan.objects.get(pk=plan_id)
    real = apply.plan_changes
    stale = real(agency=agency_world.agency, body=plan.body)  # checked before the slug went
    make_workspace(slug="acme")
    calls = []

    def checked_before_the_race(**kwargs):
        calls.append(1)
        return copy.deepcopy(stale) if len(calls) == 1 else real(**kwargs)

    monkeypatch.setattr(apply, "plan_changes", checked_before_the_race)
    response = write(agency_world.full, "POST", f"/api/v1/plans/{plan_id}/apply")
    assert response.status_code == 200
    result = response.json()["result"]
    assert [(c["status"], c["code"]) for c in result["changes"]] == [
        ("blocked", "slug_taken"),
        ("blocked", "workspace_blocked"),
        ("blocked", "workspace_blocked"),
        ("blocked", "workspace_blocked"),
        ("blocked", "workspace_blocked"),
    ]
    assert Workspace.objects.filter(slug="acme").count() == 1
    assert Member.objects.filter(email="ana@acme.test").count() == 0


def test_a_blueprint_keeps_an_unknown_integration_and_a_plan_blocks_it(agency_world, write):
    """The answer echoes the key as asked (the description says any key, not an enum)."""
    blueprint = {"name": "Lean", "integrations": ["calendly", "mailchimp"]}
    saved = write(agency_world.full, "PUT", "/api/v1/templates/lean", blueprint)
    assert saved.status_code == 201
    assert saved.json()["integrations"] == ["calendly", "mailchimp"]
    plan = write(
        agency_world.full, "POST", "/api/v1/plans", new_workspace_plan(blueprint="lean")
    ).json()
    connects = [
        (c["target"], c["status"], c.get("code"))
        for c in plan["result"]["changes"]
        if c["op"] == "integration.connect"
    ]
    assert connects[:2] == [
        ("calendly", "ready", None),
        ("mailchimp", "blocked", "integration_unknown"),
    ]
