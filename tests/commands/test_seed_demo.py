import json
import re
from collections import Counter

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.management.base import CommandError
from django.db import connection
from django.test import RequestFactory
from django.utils import timezone
from oauth2_provider.models import get_access_token_model, get_application_model

from audit.models import AuditEvent
from demo.services import DEMO_PASSWORD
from tokens.models import ApiToken
from workspaces.models import (
    AdSpend,
    Agency,
    Call,
    CommissionRule,
    EodReport,
    FunnelEvent,
    FunnelStage,
    Lead,
    Member,
    Outcome,
    Payment,
    Refund,
    Registration,
    Sale,
    Touch,
    WebinarEvent,
    Workspace,
)

from .conftest import run

pytestmark = pytest.mark.django_db

SVC = re.compile(r"^svc_[0-9a-f]{64}$")
AGY = re.compile(r"^agy_[0-9a-f]{64}$")
ROLES = ["owner", "admin", "manager", "closer", "setter", "sdr"]
RECORD_MODELS = (
    Lead,
    Touch,
    Call,
    Outcome,
    Sale,
    Payment,
    Refund,
    EodReport,
    WebinarEvent,
    Registration,
    FunnelEvent,
    CommissionRule,
)


def test_json_has_exactly_the_documented_shape(seed_demo, settings):
    demo = seed_demo("--seed", "3")
    assert set(demo) == {"base_url", "agency", "starter_agency", "workspaces"}
    assert demo["base_url"] == settings.BASE_URL
    assert set(demo["agency"]) == {"id", "tier", "tokens"}
    assert demo["agency"]["tier"] == "agency"
    assert set(demo["agency"]["tokens"]) == {"full", "no_apply", "read"}
    assert set(demo["starter_agency"]) == {"id", "tier", "tokens"}
    assert demo["starter_agency"]["tier"] == "starter"
    assert set(demo["starter_agency"]["tokens"]) == {"full"}
    for token in [*demo["agency"]["tokens"].values(), demo["starter_agency"]["tokens"]["full"]]:
        assert AGY.match(token)
    for ws in demo["workspaces"]:
        assert set(ws) == {
            "id",
            "slug",
            "currency",
            "timezone",
            "agency_id",
            "tokens",
            "embedded_app",
            "members",
        }
        assert set(ws["tokens"]) == {"read", "write"}
        assert all(SVC.match(token) for token in ws["tokens"].values())
        assert set(ws["embedded_app"]) == {"client_id", "redirect_uri", "origin"}
        assert [m["role"] for m in ws["members"]] == ROLES
        for member in ws["members"]:
            assert set(member) == {"id", "role", "email", "password", "session_token"}
    agency_workspaces = [w for w in demo["workspaces"] if w["agency_id"] == demo["agency"]["id"]]
    assert len(agency_workspaces) == 2
    assert {(w["currency"], w["timezone"]) for w in agency_workspaces} == {
        ("USD", "America/New_York"),
        ("EUR", "Europe/Berlin"),
    }


def test_token_scopes(seed_demo):
    demo = seed_demo()
    scopes = {t.name: sorted(t.scopes) for t in ApiToken.objects.all()}
    agency = Agency.objects.get(pk=demo["agency"]["id"])
    by_name = {t.name.rsplit(" ", 1)[-1]: sorted(t.scopes) for t in agency.api_tokens.all()}
    assert by_name == {
        "full": ["config:apply", "config:plan", "connect:links", "read"],
        "no_apply": ["config:plan", "connect:links", "read"],
        "read": ["read"],
    }
    ws = Workspace.objects.get(pk=demo["workspaces"][0]["id"])
    ws_scopes = {t.name.rsplit(" ", 1)[-1]: sorted(t.scopes) for t in ws.api_tokens.all()}
    assert ws_scopes == {"read": ["read"], "write": ["data:write", "read"]}
    assert len(scopes) == 4 + 2 * len(demo["workspaces"])


def test_tokens_and_member_sessions_work(seed_demo, api):
    demo = seed_demo()
    for ws in demo["workspaces"]:
        for name in ("read", "write"):
            response = api(ws["tokens"][name]).get("/api/v1/whoami")
            assert response.status_code == 200
            assert response.json()["workspace"] == {"id": ws["id"]}
        for member in ws["members"]:
            response = api(member["session_token"]).get("/api/v1/whoami")
            assert response.status_code == 200, member["role"]
            assert response.json()["workspace"] == {"id": ws["id"]}
        owner, closer = ws["members"][0], ws["members"][3]
        assert api(owner["session_token"]).get("/api/v1/calls").status_code == 200
        denied = api(closer["session_token"]).get("/api/v1/calls")
        assert denied.status_code == 403
        assert denied.json()["error"]["reason"] == "refused.member_scope"
        # An embedded app's page may call with its listed origin.
        response = api(owner["session_token"], HTTP_ORIGIN=ws["embedded_app"]["origin"]).get(
            "/api/v1/whoami"
        )
        assert response.status_code == 200
    for token in demo["agency"]["tokens"].values():
        assert api(token).get("/api/v1/agency/workspaces").status_code == 200
    # Agency tokens do not reach the figures API.
    assert api(demo["agency"]["tokens"]["full"]).get("/api/v1/whoami").status_code == 401


def test_members_and_agency_users_can_sign_in(seed_demo):
    demo = seed_demo()
    for ws in demo["workspaces"]:
        app = get_application_model().objects.get(client_id=ws["embedded_app"]["client_id"])
        assert app.client_type == "public"
        assert app.authorization_grant_type == "authorization-code"
        assert app.redirect_uris.split() == [ws["embedded_app"]["redirect_uri"]]
        workspace = Workspace.objects.get(pk=ws["id"])
        assert workspace.embedded_origins == [ws["embedded_app"]["origin"]]
        assert app.embedded_app.workspace == workspace
        assert app.allowed_origins == ws["embedded_app"]["origin"]
        # Made by the one embedded-app service, which records its audit event.
        assert list(
            AuditEvent.objects.filter(
                action="embedded_app.created", target_id=str(app.embedded_app.pk)
            ).values_list("workspace_id", "actor_kind")
        ) == [(workspace.pk, "command")]
        for entry in ws["members"]:
            user = authenticate(
                sign_in_request(), username=entry["email"], password=entry["password"]
            )
            member = Member.objects.get(pk=entry["id"])
            assert user is not None and member.user == user
            assert (member.workspace_id, member.role, member.email) == (
                workspace.pk,
                entry["role"],
                entry["email"],
            )
    for key in ("agency", "starter_agency"):
        agency = Agency.objects.get(pk=demo[key]["id"])
        assert agency.users.count() == 1
        user = agency.users.get()
        assert (
            authenticate(
                sign_in_request(),
                username=user.username,
                password=demo["workspaces"][0]["members"][0]["password"],
            )
            == user
        )
        assert user.username == user.email


def sign_in_request():
    """authenticate() needs the request: django-axes counts attempts per address."""
    return RequestFactory().post("/accounts/login/")


def _counts(demo):
    return [
        {
            model.__name__: model.objects.filter(workspace_id=ws["id"]).count()
            for model in RECORD_MODELS
        }
        for ws in demo["workspaces"]
    ]


def test_record_counts_are_the_same_for_one_seed(seed_demo):
    first = seed_demo("--seed", "11")
    second = seed_demo("--seed", "11")
    other = seed_demo("--seed", "12")
    assert first["workspaces"][0]["id"] != second["workspaces"][0]["id"]
    assert first["agency"]["tokens"]["full"] != second["agency"]["tokens"]["full"]
    assert _counts(first) == _counts(second)
    assert _counts(first) != _counts(other)
    leads = [
        list(
            Lead.objects.filter(workspace_id=demo["workspaces"][0]["id"])
            .order_by("external_id")
            .values_list("name", "utm_source", "status")
        )
        for demo in (first, second)
    ]
    assert leads[0] == leads[1]


def test_records_cover_every_case_and_keep_the_invariants(seed_demo):
    demo = seed_demo()
    for entry in demo["workspaces"]:
        ws = Workspace.objects.get(pk=entry["id"])
        calls = Call.objects.filter(workspace=ws)
        live = calls.filter(replaced=False, status="scheduled")
        now = timezone.now()
        assert calls.filter(status="cancelled").exists()
        assert calls.filter(replaced=True).exists()
        assert live.filter(attendance="no_show").exists()
        assert live.filter(attendance="showed").exists()
        assert live.filter(attendance="", scheduled_for__lt=now).exists()  # awaiting outcome
        assert live.filter(scheduled_for__gt=now).exists()  # upcoming
        assert Payment.objects.filter(workspace=ws, status="failed").exists()
        assert Lead.objects.filter(workspace=ws, utm_source="").exists()
        assert Lead.objects.filter(workspace=ws).exclude(utm_source="").exists()
        assert Outcome.objects.filter(workspace=ws, call__isnull=True).exists()
        assert Sale.objects.filter(workspace=ws, instalments__isnull=False).exists()
        assert WebinarEvent.objects.filter(workspace=ws, pitch_at__isnull=True).count() == 1
        assert Registration.objects.filter(workspace=ws, joined_at__isnull=False).exists()
        stages = FunnelStage.objects.filter(funnel__workspace=ws, funnel__key="vsl")
        assert list(stages.values_list("key", flat=True)) == [
            "opt-in",
            "application",
            "booked",
            "taken",
            "closed",
        ]
        ruled = set(
            CommissionRule.objects.filter(workspace=ws).values_list("member__role", flat=True)
        )
        assert "sdr" not in ruled and {"closer", "setter"} <= ruled
        # Nothing lies in the future but upcoming calls and webinars.
        assert not Lead.objects.filter(workspace=ws, created_at__gt=now).exists()
        assert not Payment.objects.filter(workspace=ws, paid_at__gt=now).exists()
        assert not Outcome.objects.filter(workspace=ws, at__gt=now).exists()
        # Invariants: outcome, replaced, first contact.
        for call in calls.prefetch_related("outcomes"):
            latest = max(call.outcomes.all(), key=lambda o: o.at, default=None)
            assert call.outcome == (latest.result if latest else "")
            assert call.outcome_reason == (latest.reason if latest else "")
        replaced_ids = set(calls.filter(replaced=True).values_list("pk", flat=True))
        assert replaced_ids == set(
            calls.filter(rescheduled_from__isnull=False).values_list("rescheduled_from", flat=True)
        )
        leads = Lead.objects.filter(workspace=ws).select_related("utm_tags")
        for lead in leads.prefetch_related("touches"):
            by_member = [t.at for t in lead.touches.all() if t.member_id is not None]
            assert lead.first_contact_at == (min(by_member) if by_member else None)
            tags = lead.utm_tags
            assert (tags.source, tags.medium, tags.campaign, tags.content) == (
                lead.utm_source,
                lead.utm_medium,
                lead.utm_campaign,
                lead.utm_content,
            )


def test_no_plaintext_token_anywhere_in_the_database(seed_demo):
    demo = seed_demo()
    secrets = [*demo["agency"]["tokens"].values(), *demo["starter_agency"]["tokens"].values()]
    for ws in demo["workspaces"]:
        secrets += list(ws["tokens"].values())
        secrets += [m["session_token"] for m in ws["members"]]
    found = Counter()
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f'SELECT * FROM "{table}"')
            for row in cursor.fetchall():
                text = " ".join(str(value) for value in row)
                for secret in secrets:
                    if secret in text:
                        found[table] += 1
    assert found == Counter()


def test_if_absent_reuses_the_saved_demo(db, demo_file):
    first = run("seed_demo", "--if-absent", "--summary")
    assert demo_file.stat().st_mode & 0o777 == 0o600
    assert "Demo created" in first
    assert Agency.objects.count() == 2
    saved = demo_file.read_text()
    second = run("seed_demo", "--if-absent", "--summary")
    assert "Demo already present" in second
    assert Agency.objects.count() == 2
    assert demo_file.read_text() == saved
    demo = json.loads(saved)
    read = demo["workspaces"][0]["tokens"]["read"]
    assert f'curl -H "Authorization: Bearer {read}" http://127.0.0.1:8000/api/v1/whoami' in second
    assert f'curl -H "Authorization: Bearer {read}" http://127.0.0.1:8000/api/v1/calls' in second
    assert (
        f"MCP server: http://127.0.0.1:8000/mcp with the header Authorization: Bearer {read}"
        in second
    )
    assert demo["agency"]["tokens"]["full"] in second
    assert demo["workspaces"][0]["members"][0]["email"] in second


def test_if_absent_creates_again_when_the_saved_demo_is_gone(db, demo_file):
    demo_file.write_text('{"agency": {"id": "00000000-0000-0000-0000-000000000000"}}')
    output = run("seed_demo", "--if-absent", "--summary")
    assert "Demo created" in output
    assert Agency.objects.count() == 2


def test_json_mode_prints_only_the_json(db):
    output = run("seed_demo", "--json")
    assert isinstance(json.loads(output), dict)
    assert output.count("\n") == 1


def test_if_absent_renews_expired_member_sessions(db, demo_file, api):
    run("seed_demo", "--if-absent", "--summary")
    saved = json.loads(demo_file.read_text())
    get_access_token_model().objects.update(expires=timezone.now())
    owner = saved["workspaces"][0]["members"][0]
    assert api(owner["session_token"]).get("/api/v1/whoami").status_code == 401
    output = run("seed_demo", "--if-absent", "--summary")
    renewed = json.loads(demo_file.read_text())
    new_owner = renewed["workspaces"][0]["members"][0]
    assert new_owner["session_token"] != owner["session_token"]
    assert new_owner["session_token"] in output
    assert api(new_owner["session_token"]).get("/api/v1/whoami").status_code == 200
    assert renewed["agency"] == saved["agency"]
    assert Agency.objects.count() == 2


# --- Under production settings ------------------------------------------------------------

PRODUCTION_REFUSED = (
    "DEBUG is off (production settings), and the demo's accounts sign in with a published "
    "password: run it on a laptop (DJANGO_SETTINGS_MODULE=config.settings_dev), or pass "
    "--allow-production to make it here with a random password for each account."
)


@pytest.mark.parametrize("args", [("--json",), ("--if-absent", "--summary"), ()])
def test_with_debug_off_it_refuses_without_allow_production(settings, demo_file, args):
    settings.DEBUG = False
    with pytest.raises(CommandError) as refused:
        run("seed_demo", *args)
    assert str(refused.value) == PRODUCTION_REFUSED
    assert (Agency.objects.count(), User.objects.count(), demo_file.exists()) == (0, 0, False)


def _signs_in(email: str, password: str) -> bool:
    return authenticate(sign_in_request(), username=email, password=password) is not None


def test_with_allow_production_each_account_has_a_random_password(settings, demo_file):
    settings.DEBUG = False
    demo = json.loads(run("seed_demo", "--json", "--allow-production"))
    members = [m for ws in demo["workspaces"] for m in ws["members"]]
    passwords = [m["password"] for m in members]
    assert len(members) == 18
    assert len(set(passwords)) == 18
    assert all(len(password) == 20 for password in passwords)
    for member in members:
        assert _signs_in(member["email"], member["password"])
    # Nobody signs in with the published password, the agency consoles' accounts included.
    assert User.objects.count() == 20
    assert not [user for user in User.objects.all() if _signs_in(user.email, DEMO_PASSWORD)]
    # Shown once: the saved demo keeps the tokens, never a password.
    saved = demo_file.read_text()
    assert [m["password"] for ws in json.loads(saved)["workspaces"] for m in ws["members"]] == [
        None
    ] * 18
    assert not [password for password in passwords if password in saved]


def test_its_summary_shows_each_random_password_once(settings, demo_file):
    settings.DEBUG = False
    first = run("seed_demo", "--if-absent", "--summary", "--allow-production")
    assert (
        "Its accounts have random passwords (production settings): each is shown here, once, "
        "and saved nowhere."
    ) in first
    assert DEMO_PASSWORD not in first
    consoles = re.findall(r"agency console sign-in (\S+) / (\S+)", first)
    members = re.findall(r"session \S+ password (\S+)$", first, re.MULTILINE)
    assert (len(consoles), len(members)) == (2, 18)
    for email, password in consoles:
        assert _signs_in(email, password)
    again = run("seed_demo", "--if-absent", "--summary", "--allow-production")
    assert "Demo already present" in again
    assert "Its accounts have random passwords (production settings): not saved." in again
    assert again.count("(random, shown once when the demo was made)") == 20
    assert not [password for _, password in consoles if password in again]
    assert not [password for password in members if password in again]


def test_with_debug_on_the_accounts_keep_the_published_password(demo_file):
    output = run("seed_demo", "--if-absent", "--summary")
    assert "members (sign in with the email and the password demo-password-2026):" in output
    assert "random" not in output
    saved = json.loads(demo_file.read_text())
    assert {m["password"] for ws in saved["workspaces"] for m in ws["members"]} == {DEMO_PASSWORD}


def test_its_summary_links_to_the_address_this_run_serves(settings, demo_file):
    settings.BASE_URL = "http://127.0.0.1:8000"
    run("seed_demo", "--if-absent")
    settings.BASE_URL = "http://127.0.0.1:8110"
    again = run("seed_demo", "--if-absent", "--summary")
    assert re.findall(r"http://127\.0\.0\.1:\d+/\S*", again.split("Try it")[1]) == [
        "http://127.0.0.1:8110/api/v1/whoami",
        "http://127.0.0.1:8110/api/v1/calls",
        "http://127.0.0.1:8110/mcp",
    ]
    assert (
        "It was made for http://127.0.0.1:8000: its embedded apps redirect there "
        "(`manage.py seed_demo` makes a demo for this address)."
    ) in again


def test_the_acquisition_figures_show_at_once(seed_demo, api):
    """Three months of daily spend for the paid campaigns, on the UTM values their leads
    carry: /acquisition sets spend beside leads and cash from the first request."""
    demo = seed_demo()
    for ws in demo["workspaces"]:
        spend = AdSpend.objects.filter(workspace_id=ws["id"])
        days = sorted(set(spend.values_list("date", flat=True)))
        assert len(days) == 91 and spend.count() == 3 * 91
        assert (days[-1] - days[0]).days == 90
        body = api(ws["tokens"]["read"]).get("/api/v1/acquisition").json()
        rows = {(r["utm_source"], r["utm_campaign"]): r for r in body["data"]["rows"]}
        facebook = rows[("facebook", "spring-launch")]
        assert facebook["spend"]["value"] > 0 and facebook["leads"]["value"] > 0
        assert facebook["cost_per_lead"]["value"] > 0
        assert body["data"]["total"]["roas"]["value"] is not None
        assert list(rows)[:3] == [
            ("facebook", "spring-launch"),
            ("google", "brand"),
            ("instagram", "dm-campaign"),
        ]
