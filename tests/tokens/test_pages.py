"""The settings pages: sign-in, API tokens, agency tokens and embedded apps."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from oauth2_provider.models import get_application_model

from audit.models import AuditEvent
from tokens.models import ApiToken, EmbeddedApp
from tokens.pages import MINTED_SESSION_KEY

from .conftest import PASSWORD, browser_client, hidden_fields, sign_in

pytestmark = pytest.mark.django_db

TOKEN_IN_PAGE = re.compile(r'<code id="minted-token">((?:svc|agy)_[0-9a-f]{64})</code>')


@pytest.fixture
def team(make_workspace, make_member):
    workspace = make_workspace(name="Northwind Sales")
    return {
        "workspace": workspace,
        **{role: make_member(workspace, role) for role in ("owner", "admin", "manager", "closer")},
    }


def client_for(member_or_user):
    user = getattr(member_or_user, "user", member_or_user)
    client = browser_client()
    client.force_login(user)
    return client


def csrf(client, url):
    return hidden_fields(client.get(url).content.decode())["csrfmiddlewaretoken"]


def tokens_url(workspace):
    return f"/settings/{workspace.pk}/tokens/"


def mint(client, url, name="Reporting", scopes=("read",)):
    return client.post(
        url, {"csrfmiddlewaretoken": csrf(client, url), "name": name, "scopes": list(scopes)}
    )


# --- Sign-in ---------------------------------------------------------------------------


def test_sign_in_with_email_and_password_goes_to_the_workspace(team):
    client = browser_client()
    response = sign_in(client, team["owner"].email, "/")
    assert response.status_code == 302
    assert response["Location"] == "/"
    # One workspace: home sends the person straight to its overview.
    home = client.get("/")
    assert home.status_code == 302
    assert home["Location"] == f"/app/{team['workspace'].pk}/"


def test_sign_in_refuses_a_wrong_password(team):
    client = browser_client()
    page = client.get("/accounts/login/")
    response = client.post(
        "/accounts/login/",
        {
            "csrfmiddlewaretoken": hidden_fields(page.content.decode())["csrfmiddlewaretoken"],
            "username": team["owner"].email,
            "password": "wrong-password",
        },
    )
    assert response.status_code == 200
    assert "That email and password do not match an account." in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_sign_in_form_needs_its_csrf_token(team):
    client = browser_client()
    response = client.post(
        "/accounts/login/", {"username": team["owner"].email, "password": PASSWORD}
    )
    assert response.status_code == 403


def test_sign_out_is_a_post(team):
    client = client_for(team["owner"])
    token = csrf(client, tokens_url(team["workspace"]))
    response = client.post("/accounts/logout/", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/"
    assert client.get(tokens_url(team["workspace"])).status_code == 302


def test_home_lists_several_places(team, make_workspace, make_member, make_agency):
    second = make_workspace(name="Second team")
    member = make_member(second, "admin", email="multi@example.test")
    member.user = team["owner"].user
    member.save()
    agency = make_agency(name="Acme Agency")
    agency.users.add(team["owner"].user)
    response = client_for(team["owner"]).get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Northwind Sales" in html and "Second team" in html
    assert f'<a href="/agency/{agency.pk}/tokens/">Agency tokens</a>' in html


def test_pages_need_sign_in(team):
    response = browser_client().get(tokens_url(team["workspace"]))
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={tokens_url(team['workspace'])}"


# --- Workspace API tokens --------------------------------------------------------------


@pytest.mark.parametrize("role", ["owner", "admin"])
def test_mint_shows_the_token_once(team, role, api):
    client = client_for(team[role])
    url = tokens_url(team["workspace"])
    response = mint(client, url, name="Reporting", scopes=["read", "data:write"])
    assert response.status_code == 302
    assert response["Location"] == url

    page = client.get(url)
    assert page.status_code == 200
    assert page["Cache-Control"] == "max-age=0, no-cache, no-store, must-revalidate, private"
    plaintext = TOKEN_IN_PAGE.search(page.content.decode()).group(1)
    token = ApiToken.objects.get()
    assert (token.name, token.scopes, token.workspace_id) == (
        "Reporting",
        ["read", "data:write"],
        team["workspace"].pk,
    )
    assert token.created_by == team[role].user
    assert api(plaintext).get("/api/v1/whoami").status_code == 200
    # Nothing of it stays in the session.
    assert MINTED_SESSION_KEY not in client.session

    reload = client.get(url).content.decode()
    assert plaintext not in reload
    assert TOKEN_IN_PAGE.search(reload) is None
    assert f'<code class="display">svc_…{plaintext[-4:]}</code>' in reload
    assert plaintext[4:-4] not in reload

    event = AuditEvent.objects.get(action="token.minted")
    assert (event.actor_kind, event.actor_id, event.actor_label) == (
        "user",
        str(team[role].user.pk),
        team[role].email,
    )


def test_the_session_holds_the_new_token_only_encrypted_until_the_one_render(team):
    client = client_for(team["owner"])
    url = tokens_url(team["workspace"])
    mint(client, url)
    stored = client.session[MINTED_SESSION_KEY]
    assert set(stored) == {"owner", "id", "name", "secret"}
    assert not stored["secret"].startswith("svc_")
    client.get(url)
    assert MINTED_SESSION_KEY not in client.session


def test_the_token_list_shows_name_prefix_last_four_scopes_and_state(team, workspace_token):
    workspace = team["workspace"]
    plaintext = workspace_token(workspace, scopes=("read", "data:write"), name="Dashboard")
    client = client_for(team["owner"])
    html = client.get(tokens_url(workspace)).content.decode()
    assert "<td>Dashboard</td>" in html
    assert f'<code class="display">svc_…{plaintext[-4:]}</code>' in html
    assert '<span class="tag">read</span><span class="tag">data:write</span>' in html
    assert "never" in html
    assert plaintext not in html
    assert ApiToken.objects.get().digest not in html


def test_the_token_list_reads_in_a_fixed_number_of_queries(
    team, workspace_token, django_assert_max_num_queries
):
    for n in range(5):
        workspace_token(team["workspace"], name=f"Token {n}")
    client = client_for(team["owner"])
    # session, user, workspace, membership, tokens
    # Six for the page, two for the navigation (workspaces, agencies).
    with django_assert_max_num_queries(8):
        response = client.get(tokens_url(team["workspace"]))
    assert response.content.decode().count("<tr data-token-id=") == 5


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "", "scopes": ["read"]}, "This field is required."),
        ({"name": "x", "scopes": []}, "This field is required."),
        (
            {"name": "x", "scopes": ["config:apply"]},
            "Select a valid choice. config:apply is not one of the available choices.",
        ),
    ],
)
def test_mint_refuses_a_bad_form(team, data, message):
    client = client_for(team["owner"])
    url = tokens_url(team["workspace"])
    response = client.post(url, {"csrfmiddlewaretoken": csrf(client, url), **data})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert ApiToken.objects.count() == 0


def test_mint_needs_the_csrf_token(team):
    client = client_for(team["owner"])
    response = client.post(tokens_url(team["workspace"]), {"name": "x", "scopes": ["read"]})
    assert response.status_code == 403
    assert ApiToken.objects.count() == 0


def test_revoke_asks_for_confirmation_then_the_api_answers_401(team, workspace_token, api):
    plaintext = workspace_token(team["workspace"], name="Dashboard")
    token = ApiToken.objects.get()
    client = client_for(team["admin"])
    url = f"/settings/{team['workspace'].pk}/tokens/{token.pk}/revoke/"
    page = client.get(url)
    assert page.status_code == 200
    assert "Revoke Dashboard?" in page.content.decode()
    token.refresh_from_db()
    assert token.revoked_at is None

    response = client.post(
        url, {"csrfmiddlewaretoken": csrf(client, url), "reason": "moved to a new server"}
    )
    assert response.status_code == 302
    assert response["Location"] == tokens_url(team["workspace"])
    token.refresh_from_db()
    assert token.revoked_at is not None
    listing = client.get(tokens_url(team["workspace"])).content.decode()
    assert "Revoked Dashboard (svc_…" in listing
    assert '<span class="revoked">revoked' in listing

    answer = api(plaintext).get("/api/v1/whoami")
    assert answer.status_code == 401
    assert answer.json()["error"]["reason"] == "unauthenticated"
    event = AuditEvent.objects.get(action="token.revoked")
    assert (event.actor_kind, event.reason) == ("user", "moved to a new server")


def test_revoke_needs_the_csrf_token(team, workspace_token):
    workspace_token(team["workspace"])
    token = ApiToken.objects.get()
    client = client_for(team["owner"])
    response = client.post(f"/settings/{team['workspace'].pk}/tokens/{token.pk}/revoke/")
    assert response.status_code == 403
    token.refresh_from_db()
    assert token.revoked_at is None


def test_a_token_of_another_workspace_cannot_be_revoked_here(team, make_workspace, workspace_token):
    other = make_workspace()
    workspace_token(other)
    token = ApiToken.objects.get()
    client = client_for(team["owner"])
    url = f"/settings/{team['workspace'].pk}/tokens/{token.pk}/revoke/"
    assert client.get(url).status_code == 404
    assert (
        client.post(
            url, {"csrfmiddlewaretoken": csrf(client, tokens_url(team["workspace"]))}
        ).status_code
        == 404
    )
    token.refresh_from_db()
    assert token.revoked_at is None


@pytest.mark.parametrize("role", ["manager", "closer"])
@pytest.mark.parametrize("page", ["tokens", "apps"])
def test_other_roles_get_a_403_page(team, role, page, workspace_token):
    workspace_token(team["workspace"])
    client = client_for(team[role])
    url = f"/settings/{team['workspace'].pk}/{page}/"
    response = client.get(url)
    assert response.status_code == 403
    assert (
        f"Only an owner or admin of Northwind Sales manages its settings; your role is {role}."
        in response.content.decode()
    )
    response = client.post(
        url,
        {"csrfmiddlewaretoken": csrf(client, url), "name": "x", "scopes": ["read"]},
    )
    assert response.status_code == 403
    assert ApiToken.objects.count() == 1


NOT_FOUND_PAGE = "Nothing lives at this address."


def assert_plain_404(response, *names):
    assert response.status_code == 404
    html = response.content.decode()
    assert NOT_FOUND_PAGE in html
    for name in names:
        assert name not in html


@pytest.mark.parametrize("page", ["tokens", "apps"])
def test_a_non_member_gets_the_plain_404_page(team, make_workspace, make_member, page):
    outsider = make_member(make_workspace(), "owner")
    client = client_for(outsider)
    url = f"/settings/{team['workspace'].pk}/{page}/"
    assert_plain_404(client.get(url), "Northwind Sales")
    response = client.post(
        url,
        {
            "csrfmiddlewaretoken": csrf(client, tokens_url(outsider.workspace)),
            "action": "origins",
            "origins": "https://evil.example.com",
            "name": "x",
            "scopes": ["read"],
        },
    )
    assert_plain_404(response, "Northwind Sales")
    assert ApiToken.objects.count() == 0
    team["workspace"].refresh_from_db()
    assert team["workspace"].embedded_origins == []


def test_a_non_member_cannot_reach_the_revoke_page(
    team, make_workspace, make_member, workspace_token
):
    workspace_token(team["workspace"], name="Dashboard")
    token = ApiToken.objects.get()
    outsider = make_member(make_workspace(), "owner")
    response = client_for(outsider).get(
        f"/settings/{team['workspace'].pk}/tokens/{token.pk}/revoke/"
    )
    assert_plain_404(response, "Northwind Sales", "Dashboard")


def test_an_inactive_owner_gets_the_plain_404_page(team):
    team["owner"].is_active = False
    team["owner"].save()
    assert_plain_404(client_for(team["owner"]).get(tokens_url(team["workspace"])), "Northwind")


def test_an_unknown_or_archived_workspace_is_404(team):
    client = client_for(team["owner"])
    assert_plain_404(client.get("/settings/00000000-0000-0000-0000-000000000000/tokens/"))
    assert_plain_404(client.get("/settings/00000000-0000-0000-0000-000000000000/apps/"))
    team["workspace"].archived_at = timezone.now()
    team["workspace"].save()
    assert_plain_404(client.get(tokens_url(team["workspace"])), "Northwind Sales")


# --- Agency tokens -----------------------------------------------------------------------


@pytest.fixture
def agency_user(make_agency):
    agency = make_agency(name="Acme Agency")
    user = get_user_model().objects.create_user(
        username="agent@example.test", email="agent@example.test", password=PASSWORD
    )
    agency.users.add(user)
    return agency, user


def test_agency_user_mints_sees_once_and_revokes(agency_user, api):
    agency, user = agency_user
    client = client_for(user)
    url = f"/agency/{agency.pk}/tokens/"
    page = client.get(url).content.decode()
    # The header's links are the console's: the agency's console, and its tokens (this page).
    assert f'<a href="/agency/{agency.pk}/" id="nav-console">{agency.name}</a>' in page
    assert f'<a href="/agency/{agency.pk}/tokens/" id="nav-tokens" aria-current="page">' in page
    for scope in ("read", "config:plan", "config:apply", "connect:links"):
        assert f'value="{scope}"' in page

    response = mint(client, url, name="Provisioning", scopes=["read", "config:plan"])
    assert response.status_code == 302
    html = client.get(url).content.decode()
    plaintext = TOKEN_IN_PAGE.search(html).group(1)
    assert plaintext.startswith("agy_")
    token = ApiToken.objects.get()
    assert (token.kind, token.agency_id, token.scopes) == (
        "agency",
        agency.pk,
        ["read", "config:plan"],
    )
    reload = client.get(url).content.decode()
    assert plaintext not in reload
    assert f'<code class="display">agy_…{plaintext[-4:]}</code>' in reload

    revoke_url = f"/agency/{agency.pk}/tokens/{token.pk}/revoke/"
    client.post(revoke_url, {"csrfmiddlewaretoken": csrf(client, revoke_url)})
    token.refresh_from_db()
    assert token.revoked_at is not None
    answer = api(plaintext).get("/api/v1/whoami")
    assert answer.status_code == 401
    assert answer.json()["error"]["message"] == (
        "This token has been revoked. Create a new one in the settings."
    )


def test_agency_pages_refuse_a_workspace_scope(agency_user):
    agency, user = agency_user
    client = client_for(user)
    url = f"/agency/{agency.pk}/tokens/"
    response = mint(client, url, scopes=["data:write"])
    assert response.status_code == 400
    assert ApiToken.objects.count() == 0


def test_someone_not_among_the_agency_users_gets_the_plain_404_page(
    agency_user, team, make_agency, agency_token
):
    agency, user = agency_user
    client = client_for(team["owner"])
    url = f"/agency/{agency.pk}/tokens/"
    assert_plain_404(client.get(url), "Acme Agency")
    token = csrf(client, tokens_url(team["workspace"]))
    response = client.post(url, {"csrfmiddlewaretoken": token, "name": "x", "scopes": ["read"]})
    assert_plain_404(response, "Acme Agency")
    assert ApiToken.objects.count() == 0
    agency_token(agency)
    revoke = client.get(f"/agency/{agency.pk}/tokens/{ApiToken.objects.get().pk}/revoke/")
    assert_plain_404(revoke, "Acme Agency")
    # An agency user does not reach another agency either, nor an unknown id.
    other = make_agency(name="Other Agency")
    assert_plain_404(client_for(user).get(f"/agency/{other.pk}/tokens/"), "Other Agency")
    unknown = "/agency/00000000-0000-0000-0000-000000000000/tokens/"
    assert_plain_404(client_for(user).get(unknown))


def test_an_agency_token_of_another_agency_cannot_be_revoked(
    agency_user, make_agency, agency_token
):
    agency, user = agency_user
    agency_token(make_agency())
    token = ApiToken.objects.get()
    client = client_for(user)
    url = f"/agency/{agency.pk}/tokens/{token.pk}/revoke/"
    assert client.get(url).status_code == 404


# --- Embedded apps ---------------------------------------------------------------------


def apps_url(workspace):
    return f"/settings/{workspace.pk}/apps/"


def post_apps(client, workspace, **data):
    url = apps_url(workspace)
    return client.post(url, {"csrfmiddlewaretoken": csrf(client, url), **data})


def test_origins_are_validated_normalised_and_audited(team):
    client = client_for(team["owner"])
    response = post_apps(
        client,
        team["workspace"],
        action="origins",
        origins="https://App.Example.com/\nhttp://localhost:5173\nhttps://app.example.com:443",
    )
    assert response.status_code == 302
    team["workspace"].refresh_from_db()
    assert team["workspace"].embedded_origins == [
        "https://app.example.com",
        "http://localhost:5173",
    ]
    event = AuditEvent.objects.get(action="workspace.embedded_origins_changed")
    assert event.detail == {
        "before": [],
        "after": ["https://app.example.com", "http://localhost:5173"],
    }
    assert event.actor_kind == "user"


@pytest.mark.parametrize(
    "bad",
    [
        "https://app.example.com/path",
        "app.example.com",
        "ftp://app.example.com",
        "https://app.example.com?x=1",
        "https://user@app.example.com",
        "https://app.example.com:99999",
        "*",
        "http://insecure.example",
        "https://app.example.com#top",
    ],
)
def test_a_value_that_is_not_an_origin_is_refused(team, bad):
    client = client_for(team["owner"])
    response = post_apps(client, team["workspace"], action="origins", origins=bad)
    assert response.status_code == 400
    page = response.content.decode()
    assert "is not an origin" in page or "port out of range" in page or "must use https" in page
    team["workspace"].refresh_from_db()
    assert team["workspace"].embedded_origins == []
    assert AuditEvent.objects.count() == 0


def test_create_an_app_then_edit_its_redirect_uris(team):
    client = client_for(team["admin"])
    page = client.get(apps_url(team["workspace"])).content.decode()
    assert "No embedded app yet." in page
    response = post_apps(
        client,
        team["workspace"],
        action="create_app",
        name="Northwind board",
        redirect_uris="https://board.example.com/callback\nhttps://board.example.com/cb2",
    )
    assert response.status_code == 302
    app = EmbeddedApp.objects.select_related("application").get()
    assert app.workspace == team["workspace"]
    application = app.application
    assert (application.name, application.client_type, application.authorization_grant_type) == (
        "Northwind board",
        "public",
        "authorization-code",
    )
    assert application.redirect_uris == (
        "https://board.example.com/callback https://board.example.com/cb2"
    )
    assert application.skip_authorization is False
    # A public client: no secret is made for it.
    assert (application.client_secret, application.allowed_origins) == ("", "")
    page = client.get(apps_url(team["workspace"])).content.decode()
    assert f'<code class="client-id">{application.client_id}</code>' in page

    response = post_apps(
        client,
        team["workspace"],
        action="redirect_uris",
        app=str(app.pk),
        **{f"{app.pk}-redirect_uris": "https://board.example.com/new"},
    )
    assert response.status_code == 302
    application.refresh_from_db()
    assert application.redirect_uris == "https://board.example.com/new"
    assert list(AuditEvent.objects.order_by("at").values_list("action", flat=True)) == [
        "embedded_app.created",
        "embedded_app.redirect_uris_changed",
    ]


@pytest.mark.parametrize(
    "uris",
    ["", "not a uri", "https://board.example.com/cb#fragment", "https://*.example.com/cb"],
)
def test_bad_redirect_uris_are_refused(team, uris):
    client = client_for(team["owner"])
    response = post_apps(
        client, team["workspace"], action="create_app", name="Board", redirect_uris=uris
    )
    assert response.status_code == 400
    assert EmbeddedApp.objects.count() == 0
    assert get_application_model().objects.count() == 0


def test_an_app_of_another_workspace_cannot_be_edited_here(team, make_workspace, embedded_app):
    other_app = embedded_app(make_workspace())
    client = client_for(team["owner"])
    response = post_apps(
        client,
        team["workspace"],
        action="redirect_uris",
        app=str(other_app.pk),
        **{f"{other_app.pk}-redirect_uris": "https://evil.example.com/cb"},
    )
    assert response.status_code == 404
    other_app.application.refresh_from_db()
    assert other_app.application.redirect_uris == "https://app.example.test/callback"


def test_apps_page_needs_the_csrf_token(team):
    client = client_for(team["owner"])
    response = client.post(
        apps_url(team["workspace"]), {"action": "origins", "origins": "https://a.example.com"}
    )
    assert response.status_code == 403
    team["workspace"].refresh_from_db()
    assert team["workspace"].embedded_origins == []


def test_the_apps_page_reads_in_a_fixed_number_of_queries(
    team, embedded_app, django_assert_max_num_queries
):
    for n in range(3):
        embedded_app(team["workspace"], redirect_uri=f"https://app{n}.example.test/cb")
    client = client_for(team["owner"])
    # session, user, workspace, membership, apps with their applications
    # Six for the page, two for the navigation (workspaces, agencies).
    with django_assert_max_num_queries(8):
        response = client.get(apps_url(team["workspace"]))
    assert response.content.decode().count('<code class="client-id">') == 3


def test_a_revoke_reason_with_a_nul_still_revokes(team, workspace_token):
    workspace_token(team["workspace"], name="Dashboard")
    token = ApiToken.objects.get()
    client = client_for(team["admin"])
    url = f"/settings/{team['workspace'].pk}/tokens/{token.pk}/revoke/"
    response = client.post(url, {"csrfmiddlewaretoken": csrf(client, url), "reason": "old\x00box"})
    assert response.status_code == 302
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert AuditEvent.objects.get(action="token.revoked").reason == "oldbox"


def test_an_unknown_action_of_the_apps_page_is_404(team):
    client = client_for(team["owner"])
    response = post_apps(client, team["workspace"], action="delete_everything")
    assert response.status_code == 404
    assert AuditEvent.objects.count() == 0


def test_bad_redirect_uris_for_an_app_are_refused_on_its_form(team, embedded_app):
    app = embedded_app(team["workspace"])
    client = client_for(team["owner"])
    response = post_apps(
        client,
        team["workspace"],
        action="redirect_uris",
        app=str(app.pk),
        **{f"{app.pk}-redirect_uris": "https://app.example.test/cb#top"},
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert f'name="{app.pk}-redirect_uris"' in page
    assert "a redirect URI is exact, with no fragment or wildcard." in page
    app.application.refresh_from_db()
    assert app.application.redirect_uris == "https://app.example.test/callback"
    assert AuditEvent.objects.count() == 0
