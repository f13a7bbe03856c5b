"""The shell every page shares (templates/base.html): one header with a named navigation
and a skip link, titles that end with the product's name, the 404 and 403 pages' way home,
and the sign-in page after signing out."""

import re
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from agency.links import connect_link_create
from audit.services import SYSTEM
from tokens.services import token_mint
from webhooks.services import endpoint_create
from workspaces.services import lead_upsert
from workspaces.services.uploads import upload_create

pytestmark = pytest.mark.django_db

SUFFIX = " · Sales Figures"
# The modules whose views are the people's pages (the API's views answer JSON).
PAGE_MODULES = (
    "accounts.",
    "agency.pages",
    "agentapi.pages",
    "config.views",
    "dashboard.",
    "integrations.pages",
    "integrations.webinar_pages",
    "integrations.option_pages",
    "tokens.pages",
    "webhooks.pages",
)
# Pages an owner who is also an agency's user opens with a GET and reads (200).
OPENED = {
    "account",
    "agency-connect-link-revoke-page",
    "agency-console",
    "agency-token-revoke",
    "agency-tokens",
    "agency-workspace-overview",
    "connect-page",
    "dashboard-acquisition",
    "dashboard-board",
    "dashboard-calls",
    "dashboard-eod",
    "dashboard-goals",
    "dashboard-lead",
    "dashboard-leads",
    "dashboard-overview",
    "dashboard-payments",
    "dashboard-refunds",
    "dashboard-sales",
    "dashboard-spend",
    "embedded-app-landing",
    "file-form",
    "home",
    "invitations",
    "settings-apps",
    "settings-import",
    "settings-import-upload",
    "settings-integration-connect",
    "settings-integrations",
    "settings-member-deactivate",
    "settings-members",
    "settings-token-revoke",
    "settings-tokens",
    "settings-webhook",
    "settings-webhook-delete",
    "settings-webhooks",
    "settings-webinars",
    "settings-workspace",
    "work",
}


def _title(html: str) -> str:
    return re.search(r"<title>(.*?)</title>", html, re.S).group(1)


def _page_patterns(patterns=None, prefix=""):
    """Every page's (name, route) pair, from the project's URLconf."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            yield from _page_patterns(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern) and entry.name:
            view = getattr(entry.callback, "view_class", entry.callback)
            if view.__module__.startswith(PAGE_MODULES):
                yield entry.name, prefix + str(entry.pattern), entry.default_args


@pytest.fixture
def world(make_agency, make_workspace, make_member, receiver):
    agency = make_agency(name="Northwind Agency")
    workspace = make_workspace(name="Northwind Sales", agency=agency)
    owner = make_member(workspace, "owner", name="Olive Owner")
    agency.users.add(owner.user)
    closer = make_member(workspace, "closer", name="Casey Closer")
    lead, _created = lead_upsert(
        workspace=workspace,
        external_id="lead-1",
        created_at=datetime(2026, 3, 1, tzinfo=UTC),
        name="Lena Lead",
    )
    workspace_token = token_mint(actor=SYSTEM, name="ci", scopes=("read",), workspace=workspace)
    agency_token = token_mint(actor=SYSTEM, name="ops", scopes=("read",), agency=agency)
    endpoint = endpoint_create(workspace=workspace, url=receiver.url, actor=SYSTEM).endpoint
    link, url = connect_link_create(
        agency=agency,
        workspace=workspace,
        integrations=["stripe"],
        expires_in_hours=24,
        actor=SYSTEM,
    )
    upload = upload_create(
        workspace=workspace,
        user=owner.user,
        file_name="leads.csv",
        kind="lead",
        content=b"id,name,created_at\nlead-2,Ann,2026-03-02 09:00\n",
        actor=SYSTEM,
    )
    values = {
        "upload_id": upload.pk,
        "workspace_id": workspace.pk,
        "agency_id": agency.pk,
        "member_id": closer.pk,
        "lead_id": lead.pk,
        "endpoint_id": endpoint.pk,
        "link_id": link.pk,
        "secret": url.rstrip("/").rsplit("/", 1)[1],
        "form": "past-call",
        "provider": "stripe",
    }
    tokens = {"settings-token-revoke": workspace_token, "agency-token-revoke": agency_token}
    return SimpleNamespace(workspace=workspace, owner=owner, values=values, tokens=tokens)


def _route(route: str, values: dict) -> str | None:
    """The route with its parameters filled in, or None when one has no value here."""
    missing = False

    def fill(match):
        nonlocal missing
        name = match.group(1).split(":")[-1]
        if name not in values:
            missing = True
            return ""
        return str(values[name])

    path = re.sub(r"<([^>]+)>", fill, route)
    return None if missing else "/" + path.lstrip("^").rstrip("$")


def test_every_page_a_signed_in_owner_opens_ends_its_title_with_the_products_name(world):
    owner, values, tokens = world.owner, world.values, world.tokens
    client = Client()
    client.force_login(owner.user)
    opened = set()
    for name, route, defaults in _page_patterns():
        if name in ("login", "logout") or name.startswith("password_reset"):
            continue
        filled = {**values, **defaults}
        if name in tokens:
            filled["token_id"] = tokens[name].token.pk
        path = _route(route, filled)
        if path is None:
            continue
        answer = client.get(path)
        if answer.status_code != 200 or "text/html" not in answer.get("Content-Type", ""):
            continue
        opened.add(name)
        title = _title(answer.content.decode())
        assert title.endswith(SUFFIX), (name, title)
        assert title.count("Sales Figures") == 1, (name, title)
        assert len(title) > len(SUFFIX), (name, title)
    assert opened == OPENED


@pytest.mark.parametrize(
    ("path", "title"),
    [
        ("/accounts/login/", "Sign in · Sales Figures"),
        ("/accounts/password-reset/", "Forgotten password · Sales Figures"),
        ("/", "Welcome · Sales Figures"),
        ("/nowhere/", "Not found · Sales Figures"),
    ],
)
def test_the_signed_out_pages_end_their_titles_with_the_products_name(db, path, title):
    assert _title(Client().get(path).content.decode()) == title


def test_the_workspace_header_is_one_named_navigation_with_a_skip_link(world):
    workspace, owner = world.workspace, world.owner
    client = Client()
    client.force_login(owner.user)
    for path in (
        f"/app/{workspace.pk}/",
        f"/settings/{workspace.pk}/members/",
        f"/settings/{workspace.pk}/webhooks/",
    ):
        html = client.get(path).content.decode()
        assert html.count("<nav ") == 1
        assert '<nav id="site-nav" aria-label="Main">' in html
        assert '<a class="skip-link" href="#main" id="skip-link">Skip to main content</a>' in html
        assert '<main id="main" tabindex="-1">' in html
        assert re.findall(r'id="(nav-[a-z]+)"', html) == [
            "nav-overview",
            "nav-board",
            "nav-goals",
            "nav-integrations",
            "nav-settings",
            "nav-places",
        ]
        assert 'aria-controls="site-nav"' in html
        assert "<script>" not in html and "<style" not in html


def test_settings_opens_on_the_workspaces_settings_its_first_section(world):
    workspace, owner = world.workspace, world.owner
    client = Client()
    client.force_login(owner.user)
    html = client.get(f"/settings/{workspace.pk}/members/").content.decode()
    settings_url = f"/settings/{workspace.pk}/workspace/"
    assert (
        re.search(r'<a href="([^"]+)" id="nav-settings" aria-current="page">Settings</a>', html)[1]
        == settings_url
    )
    subnav = re.search(r'<ul class="subnav".*?</ul>', html, re.S).group(0)
    assert re.findall(r'href="([^"]+)"', subnav)[0] == settings_url
    board = client.get(f"/app/{workspace.pk}/board/").content.decode()
    assert f'<a href="{settings_url}" id="nav-settings">Settings</a>' in board


def test_the_404_page_offers_a_way_home(world):
    owner = world.owner
    signed_out = Client().get("/settings/nothing-here/")
    assert signed_out.status_code == 404
    assert '<a class="btn" href="/" id="home-link">Go to the home page</a>' in (
        signed_out.content.decode()
    )
    client = Client()
    client.force_login(owner.user)
    answer = client.get("/app/00000000-0000-0000-0000-000000000000/")
    assert answer.status_code == 404
    html = answer.content.decode()
    assert _title(html) == "Not found · Sales Figures"
    assert '<a class="btn" href="/" id="home-link">Back to your workspaces</a>' in html


def test_the_403_page_offers_a_way_home(world, make_member):
    workspace = world.workspace
    closer = make_member(workspace, "closer")
    client = Client()
    client.force_login(closer.user)
    answer = client.get(f"/settings/{workspace.pk}/workspace/")
    assert answer.status_code == 403
    html = answer.content.decode()
    assert _title(html) == "Not allowed · Sales Figures"
    assert '<a class="btn" href="/" id="home-link">Back to your workspaces</a>' in html
    # A closer's header: their board, and nothing they may not open.
    assert re.findall(r'id="(nav-[a-z]+)"', html) == ["nav-board", "nav-places"]


def test_after_signing_out_the_sign_in_page_says_so(world):
    owner = world.owner
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner.user)
    page = client.get("/accounts/")
    assert page.status_code == 200
    answer = client.post(
        "/accounts/logout/", {"csrfmiddlewaretoken": client.cookies["csrftoken"].value}
    )
    assert (answer.status_code, answer["Location"]) == (302, "/accounts/login/")
    html = client.get("/accounts/login/").content.decode()
    assert '<p class="notice" role="status">You are signed out.</p>' in html
    # Said once: the next visit is a plain sign-in page.
    assert "You are signed out." not in client.get("/accounts/login/").content.decode()
    assert client.get("/accounts/").status_code == 302
