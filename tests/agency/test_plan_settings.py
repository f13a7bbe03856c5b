"""A plan's (and a blueprint's) embedded-app origins and logo follow the rules of the
settings page (workspaces/validators.py): an origin is https://host[:port] (http on a
loopback host only), a logo an https URL. A bad one is a 400 naming it and nothing is
kept; one kept by a blueprint saved before the rules is a blocked change."""

import pytest

from agency.models import Blueprint, Plan
from workspaces.models import Workspace

pytestmark = pytest.mark.django_db

INSECURE = "http://insecure.example"


def _settings_plan(workspace, **settings) -> dict:
    return {"workspace": {"id": str(workspace.pk)}, "settings": settings}


def _apply(write, token, plan_id):
    return write(token, "POST", f"/api/v1/plans/{plan_id}/apply")


def test_a_plan_naming_an_http_origin_is_refused_and_the_origin_is_then_refused(
    agency_world, write, api, make_member, session_token
):
    workspace = agency_world.workspace
    body = _settings_plan(workspace, embedded_origins=["https://app.acme.test", INSECURE])
    response = write(agency_world.full, "POST", "/api/v1/plans", body)
    assert response.status_code == 400
    assert response.json()["error"]["reason"] == "invalid_field"
    assert response.json()["field"] == "settings.embedded_origins.1"
    assert "must use https" in response.json()["error"]["message"]
    assert Plan.objects.count() == 0
    workspace.refresh_from_db()
    assert workspace.embedded_origins == []

    # Neither CORS nor a member's session token is accepted from that origin.
    preflight = api().options(
        "/api/v1/me/board",
        HTTP_ORIGIN=INSECURE,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
    )
    assert "access-control-allow-origin" not in preflight.headers
    member = make_member(workspace, "closer")
    response = api(session_token(member), HTTP_ORIGIN=INSECURE).get("/api/v1/me/board")
    assert response.status_code == 403
    assert response.json()["error"]["reason"] == "refused.origin"
    assert "access-control-allow-origin" not in response.headers


@pytest.mark.parametrize(
    "origin",
    [
        INSECURE,
        "http://insecure.example:8080",
        "https://app.acme.test/path",
        "https://app.acme.test/path/",
        "https://user@app.acme.test",
        "https://app.acme.test?x=1",
        "https://app.acme.test#top",
        "https://*.acme.test",
        "javascript://app.acme.test",
        "app.acme.test",
        "https://app.acme.test:70000",
        "",
        7,
    ],
)
def test_a_plan_or_blueprint_naming_a_bad_origin_is_refused_naming_it(agency_world, write, origin):
    origins = ["https://app.acme.test", origin]
    plan = write(
        agency_world.full,
        "POST",
        "/api/v1/plans",
        _settings_plan(agency_world.workspace, embedded_origins=origins),
    )
    blueprint = write(
        agency_world.full,
        "PUT",
        "/api/v1/templates/embedded",
        {"name": "Embedded", "settings": {"embedded_origins": origins}},
    )
    for response in (plan, blueprint):
        assert response.status_code == 400, response.json()
        assert response.json()["error"]["reason"] == "invalid_field"
        assert response.json()["field"] == "settings.embedded_origins.1"
    assert Plan.objects.count() == 0
    assert Blueprint.objects.count() == 0


def test_origins_are_normalised_as_the_settings_page_does_and_applied(agency_world, write, api):
    workspace = agency_world.workspace
    body = _settings_plan(
        workspace,
        embedded_origins=[
            "https://App.Acme.test/",
            "https://app.acme.test:443",
            "HTTP://localhost:5173",
            "https://app.acme.test:8443",
        ],
    )
    plan = write(agency_world.full, "POST", "/api/v1/plans", body)
    assert plan.status_code == 201
    expected = ["https://app.acme.test", "http://localhost:5173", "https://app.acme.test:8443"]
    assert plan.json()["result"]["changes"][0]["detail"]["value"] == expected
    applied = _apply(write, agency_world.full, plan.json()["id"])
    assert applied.status_code == 200
    workspace.refresh_from_db()
    assert workspace.embedded_origins == expected
    preflight = api().options(
        "/api/v1/me/board",
        HTTP_ORIGIN="https://app.acme.test",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
    )
    assert preflight.headers["access-control-allow-origin"] == "https://app.acme.test"


@pytest.mark.parametrize(
    "logo",
    [
        "javascript:alert(document.domain)",
        " JavaScript:alert(1)",
        "http://cdn.acme.test/logo.png",
        "data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=",
        "//cdn.acme.test/logo.png",
        "https://",
        "https://user:secret@cdn.acme.test/logo.png",
        "https://cdn.acme.test/a logo.png",
        "https://cdn.acme.test/lo\ngo.png",
        None,
    ],
)
def test_a_logo_that_is_not_an_https_url_is_refused_in_plans_and_blueprints(
    agency_world, write, logo
):
    plan = write(
        agency_world.full,
        "POST",
        "/api/v1/plans",
        _settings_plan(agency_world.workspace, logo=logo),
    )
    blueprint = write(
        agency_world.full,
        "PUT",
        "/api/v1/templates/branded",
        {"name": "Branded", "settings": {"logo": logo}},
    )
    for response in (plan, blueprint):
        assert response.status_code == 400, response.json()
        assert response.json()["error"]["reason"] == "invalid_field"
        assert response.json()["field"] == "settings.logo"
    assert Plan.objects.count() == 0
    assert Blueprint.objects.count() == 0


@pytest.mark.parametrize("logo", ["https://cdn.acme.test/logo.png", ""])
def test_an_https_logo_or_none_is_applied_and_shown(agency_world, write, api, logo):
    workspace = agency_world.workspace
    plan = write(agency_world.full, "POST", "/api/v1/plans", _settings_plan(workspace, logo=logo))
    assert plan.status_code == 201
    assert _apply(write, agency_world.full, plan.json()["id"]).status_code == 200
    display = api(agency_world.full).get(f"/api/v1/workspaces/{workspace.pk}/display")
    assert display.json()["logo"] == logo


def test_a_logo_stored_before_the_rule_is_not_shown(agency_world, api):
    workspace = agency_world.workspace
    workspace.branding = {**workspace.branding, "logo": "javascript:alert(1)"}
    workspace.save(update_fields=["branding"])
    display = api(agency_world.full).get(f"/api/v1/workspaces/{workspace.pk}/display")
    assert display.status_code == 200
    assert display.json()["logo"] == ""


def test_origins_and_logo_kept_by_an_old_blueprint_are_blocked_and_not_applied(agency_world, write):
    Blueprint.objects.create(
        agency=agency_world.agency,
        key="legacy",
        name="Legacy",
        body={
            "name": "Legacy",
            "settings": {
                "logo": "javascript:alert(1)",
                "embedded_origins": ["https://app.acme.test", "http://insecure.example/app"],
                "labels": {"calls": "Demos"},
            },
        },
    )
    body = {"blueprint": "legacy", "workspace": {"id": str(agency_world.workspace.pk)}}
    plan = write(agency_world.full, "POST", "/api/v1/plans", body)
    assert plan.status_code == 201
    changes = {c["target"]: c for c in plan.json()["result"]["changes"]}
    assert changes["settings.logo"]["status"] == "blocked"
    assert changes["settings.logo"]["code"] == "logo_invalid"
    assert changes["settings.embedded_origins"]["status"] == "blocked"
    assert changes["settings.embedded_origins"]["code"] == "origin_invalid"
    assert changes["settings.labels"]["status"] == "ready"

    result = _apply(write, agency_world.full, plan.json()["id"]).json()["result"]
    statuses = {c["target"]: c["status"] for c in result["changes"]}
    assert statuses == {
        "settings.logo": "blocked",
        "settings.embedded_origins": "blocked",
        "settings.labels": "applied",
    }
    workspace = Workspace.objects.get(pk=agency_world.workspace.pk)
    assert workspace.embedded_origins == []
    assert workspace.branding.get("logo") == ""
    assert workspace.branding["labels"] == {"calls": "Demos"}


@pytest.mark.parametrize(
    "uri",
    [
        "https://app.acme.test/callback#done",
        "https://app.acme.test/*",
        "ftp://app.acme.test/cb",
        "",
    ],
)
def test_a_redirect_uri_follows_the_rule_of_the_settings_page(agency_world, write, uri):
    body = _settings_plan(agency_world.workspace, embedded_redirect_uri=uri)
    response = write(agency_world.full, "POST", "/api/v1/plans", body)
    assert response.status_code == 400, response.json()
    assert response.json()["field"] == "settings.embedded_redirect_uri"
    assert Plan.objects.count() == 0


def test_an_http_redirect_uri_is_refused_where_the_settings_page_refuses_it(
    agency_world, write, settings
):
    # With DEBUG off, OAuth redirect URIs are https only, in the settings page and plans alike.
    settings.OAUTH2_PROVIDER = {
        **settings.OAUTH2_PROVIDER,
        "ALLOWED_REDIRECT_URI_SCHEMES": ["https"],
    }
    body = _settings_plan(
        agency_world.workspace, embedded_redirect_uri="http://insecure.example/callback"
    )
    response = write(agency_world.full, "POST", "/api/v1/plans", body)
    assert response.status_code == 400, response.json()
    assert response.json()["field"] == "settings.embedded_redirect_uri"
    body["settings"]["embedded_redirect_uri"] = "https://app.acme.test/callback"
    assert write(agency_world.full, "POST", "/api/v1/plans", body).status_code == 201


def test_origins_of_a_plan_drafted_before_the_rule_are_blocked_when_applied(agency_world, write):
    workspace = agency_world.workspace
    plan = Plan.objects.create(
        agency=agency_world.agency,
        body={
            "workspace": {"id": str(workspace.pk)},
            "settings": {"embedded_origins": ["https://App.Example.com/path/"]},
            "team": [],
            "programmes": [],
            "integrations": [],
        },
    )
    applied = _apply(write, agency_world.full, plan.pk)
    assert applied.status_code == 200
    [change] = applied.json()["result"]["changes"]
    assert (change["target"], change["status"], change["code"]) == (
        "settings.embedded_origins",
        "blocked",
        "origin_invalid",
    )
    workspace.refresh_from_db()
    assert workspace.embedded_origins == []
