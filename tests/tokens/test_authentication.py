import hashlib

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from audit.services import SYSTEM
from core.models import IdempotencyRecord
from tokens.models import ApiToken
from tokens.services import token_revoke

pytestmark = pytest.mark.django_db

UNAUTHENTICATED = "unauthenticated"


def test_whoami_answers_the_workspace_and_token(make_workspace, workspace_token, api):
    workspace = make_workspace()
    token = workspace_token(workspace, name="Dashboard")
    response = api(token).get("/api/v1/whoami")
    assert response.status_code == 200
    assert response.json() == {
        "workspace": {"id": str(workspace.pk)},
        "token": {"name": "Dashboard"},
        "access": "read-only",
    }


def test_token_is_stored_only_as_a_tagged_digest(make_workspace, workspace_token):
    workspace = make_workspace()
    plaintext = workspace_token(workspace)
    stored = ApiToken.objects.get()
    assert stored.digest == "sha256$" + hashlib.sha256(plaintext.encode()).hexdigest()
    assert stored.prefix == "svc_"
    assert stored.last_four == plaintext[-4:]
    # The plaintext is nowhere in the row.
    row = ApiToken.objects.filter(pk=stored.pk).values().get()
    assert all(plaintext not in str(value) for value in row.values())
    assert plaintext.startswith("svc_") and len(plaintext) == 68


@pytest.mark.parametrize(
    "header",
    [
        None,
        "Bearer",
        "Basic dXNlcjpwYXNz",
        "Bearer svc_123",
        "Bearer svc_" + "g" * 64,
        "Bearer svc_" + "a" * 64,
        "Bearer " + "svc_" + "A" * 64,
        "Bearer two tokens",
        "Bearer not-a-token-of-this-service",
    ],
)
def test_bad_authorization_answers_401_with_the_error_body(api, header, make_workspace):
    make_workspace()
    client = api() if header is None else api(HTTP_AUTHORIZATION=header)
    response = client.get("/api/v1/whoami")
    assert response.status_code == 401
    body = response.json()
    assert set(body) == {"error"}
    assert body["error"]["reason"] == UNAUTHENTICATED
    assert body["error"]["message"]
    assert response["WWW-Authenticate"].startswith("Bearer resource_metadata=")


def test_revoked_token_answers_401_and_is_audited(make_workspace, workspace_token, api):
    workspace = make_workspace()
    plaintext = workspace_token(workspace)
    assert api(plaintext).get("/api/v1/whoami").status_code == 200
    token_revoke(actor=SYSTEM, token=ApiToken.objects.get(), reason="leaked")
    response = api(plaintext).get("/api/v1/whoami")
    assert response.status_code == 401
    assert response.json()["error"]["reason"] == UNAUTHENTICATED
    assert list(AuditEvent.objects.values_list("action", flat=True).order_by("at")) == [
        "token.minted",
        "token.revoked",
    ]


def test_expired_token_answers_401(make_workspace, workspace_token, api):
    workspace = make_workspace()
    plaintext = workspace_token(workspace)
    ApiToken.objects.update(expires_at=timezone.now() - timezone.timedelta(seconds=1))
    assert api(plaintext).get("/api/v1/whoami").status_code == 401


def test_last_used_is_written_at_most_once_a_minute(make_workspace, workspace_token, api):
    workspace = make_workspace()
    plaintext = workspace_token(workspace)
    api(plaintext).get("/api/v1/whoami")
    first = ApiToken.objects.get().last_used_at
    assert first is not None
    api(plaintext).get("/api/v1/whoami")
    assert ApiToken.objects.get().last_used_at == first
    ApiToken.objects.update(last_used_at=first - timezone.timedelta(minutes=2))
    api(plaintext).get("/api/v1/whoami")
    assert ApiToken.objects.get().last_used_at > first


def test_agency_token_is_not_accepted_on_the_figures_api(make_agency, agency_token, api):
    token = agency_token(make_agency())
    response = api(token).get("/api/v1/whoami")
    assert response.status_code == 401
    assert response.json()["error"]["reason"] == UNAUTHENTICATED
    assert "plans, blueprints, connect links" in response.json()["error"]["message"]


def test_token_from_a_web_page_is_refused(make_workspace, workspace_token, api):
    token = workspace_token(make_workspace())
    for header in ({"HTTP_ORIGIN": "https://evil.example"}, {"HTTP_SEC_FETCH_SITE": "cross-site"}):
        response = api(token, **header).get("/api/v1/whoami")
        assert response.status_code == 403
        assert response.json()["error"]["reason"] == "refused.token_in_browser"


def test_unauthenticated_comes_before_browser_rules(api):
    response = api(HTTP_ORIGIN="https://evil.example").get("/api/v1/whoami")
    assert response.status_code == 401


def test_session_token_whoami_and_origin_rules(make_workspace, make_member, session_token, api):
    workspace = make_workspace(origins=["https://app.example.test"])
    member = make_member(workspace, role="owner")
    token = session_token(member)
    assert api(token).get("/api/v1/whoami").status_code == 200
    ok = api(token, HTTP_ORIGIN="https://app.example.test").get("/api/v1/whoami")
    assert ok.status_code == 200
    refused = api(token, HTTP_ORIGIN="https://other.example.test").get("/api/v1/whoami")
    assert refused.status_code == 403
    assert refused.json()["error"]["reason"] == "refused.origin"


def test_nothing_is_left_behind_by_denied_requests(make_workspace, api):
    make_workspace()
    api().get("/api/v1/whoami")
    assert IdempotencyRecord.objects.count() == 0
    assert AuditEvent.objects.count() == 0
