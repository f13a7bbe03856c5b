"""Connect links: the URL once, a state read without it, revoke, and the connect page."""

import re
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.utils import timezone

from agency.models import ConnectLink, link_digest
from audit.models import AuditEvent
from core.crypto import decrypt_text
from integrations.base import ProviderRefused
from integrations.models import Connection
from integrations.providers import PROVIDERS, credentials_check
from integrations.services import connection_id_for_link

from .conftest import (
    CALENDLY_TOKEN,
    HUBSPOT_TOKEN,
    STRIPE,
    STRIPE_KEY,
    STRIPE_WEBHOOK_SECRET,
    new_key,
)

pytestmark = pytest.mark.django_db


def _make(world, write, body=None, key=None):
    return write(
        world.full,
        "POST",
        f"/api/v1/workspaces/{world.workspace.pk}/connect-links",
        body or {"integrations": ["stripe", "calendly"]},
        key=key,
    )


def _secret(url: str) -> str:
    return url.rsplit("/", 1)[1]


def test_create_answers_the_url_once_and_stores_only_a_digest(agency_world, write, api):
    key = new_key()
    response = _make(agency_world, write, key=key)
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "url", "expires_at", "integrations"}
    assert body["integrations"] == [
        {"key": "stripe", "state": "offered"},
        {"key": "calendly", "state": "offered"},
    ]
    assert re.fullmatch(r"http://127\.0\.0\.1:8000/connect/[A-Za-z0-9_-]{43}", body["url"])
    link = ConnectLink.objects.get()
    assert link.digest == link_digest(_secret(body["url"]))
    row = ConnectLink.objects.filter(pk=link.pk).values().get()
    assert all(_secret(body["url"]) not in str(value) for value in row.values())
    delta = link.expires_at - link.created_at
    assert timedelta(hours=72) - timedelta(seconds=5) < delta <= timedelta(hours=72)

    # The state read never has the URL.
    state = api(agency_world.full).get(
        f"/api/v1/workspaces/{agency_world.workspace.pk}/connect-links/{body['id']}"
    )
    assert state.status_code == 200
    assert state.json() == {
        "id": body["id"],
        "workspace_id": str(agency_world.workspace.pk),
        "expires_at": body["expires_at"],
        "expired": False,
        "revoked": False,
        "completed": False,
        "integrations": body["integrations"],
    }
    assert _secret(body["url"]) not in state.content.decode()
    # A retry with the same key replays the same answer (URL included) and makes no new link.
    again = _make(agency_world, write, key=key)
    assert again.json() == body and again["Idempotent-Replayed"] == "true"
    assert ConnectLink.objects.count() == 1


@pytest.mark.parametrize(
    "body, field",
    [
        ({"integrations": []}, "integrations"),
        ({"integrations": ["fax"]}, "integrations.0"),
        ({"integrations": ["stripe"], "expires_in_hours": 0}, "expires_in_hours"),
        ({"integrations": ["stripe"], "expires_in_hours": 721}, "expires_in_hours"),
        ({"integrations": ["stripe"], "expires_in_hours": "72"}, "expires_in_hours"),
        ({"integrations": ["stripe"], "colour": "red"}, "colour"),
    ],
)
def test_unusable_link_bodies_answer_400(agency_world, write, body, field):
    response = _make(agency_world, write, body)
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert ConnectLink.objects.count() == 0


def test_expiry_is_chosen_in_hours(agency_world, write):
    body = _make(agency_world, write, {"integrations": ["zoom"], "expires_in_hours": 1}).json()
    link = ConnectLink.objects.get(pk=body["id"])
    assert link.expires_at - link.created_at <= timedelta(hours=1)
    assert link.expires_at - link.created_at > timedelta(minutes=59)


def test_the_page_connects_a_credential_stored_encrypted(agency_world, write, api):
    url = _make(agency_world, write).json()["url"]
    path = "/connect/" + _secret(url)
    client = Client(enforce_csrf_checks=True)
    page = client.get(path)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Stripe" in html and "Calendly" in html
    assert page["Referrer-Policy"] == "strict-origin"

    # CSRF-protected: a post without the token is refused.
    refused = client.post(path, {"integration": "stripe", **STRIPE})
    assert refused.status_code == 403
    assert Connection.objects.count() == 0

    chosen = client.get(path + "?integration=stripe")
    # The webhook URL names the connection the form will make, and comes before the field
    # that asks for the secret signing its webhooks.
    link = ConnectLink.objects.get()
    connection_id = connection_id_for_link(link_id=link.pk, provider="stripe")
    chosen_html = chosen.content.decode()
    webhook = f"{django_settings.BASE_URL}/hooks/stripe/{connection_id}"
    assert chosen_html.index(webhook) < chosen_html.index('name="webhook_secret"')
    assert chosen_html.index('name="secret_key"') < chosen_html.index(webhook)
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', chosen.content.decode()).group(
        1
    )
    bad = client.post(
        path,
        {
            "csrfmiddlewaretoken": csrf,
            "integration": "stripe",
            "secret_key": "sk_live_short",
            "webhook_secret": STRIPE_WEBHOOK_SECRET,
        },
    )
    assert bad.status_code == 400
    assert "This does not look like a Stripe secret or restricted key" in bad.content.decode()
    assert Connection.objects.count() == 0

    ok = client.post(path, {"csrfmiddlewaretoken": csrf, "integration": "stripe", **STRIPE})
    assert ok.status_code == 302
    connection = Connection.objects.get()
    assert connection.pk == connection_id
    assert (connection.provider, connection.state) == ("stripe", "connected")
    assert connection.workspace_id == agency_world.workspace.pk
    assert list(link.connections.all()) == [connection]
    stored = bytes(connection.credentials_encrypted)
    assert STRIPE_KEY.encode() not in stored
    assert decrypt_text(stored) == f'{{"secret_key":"{STRIPE_KEY}"}}'
    signing = bytes(connection.signing_secret_encrypted)
    assert STRIPE_WEBHOOK_SECRET.encode() not in signing
    assert decrypt_text(signing) == STRIPE_WEBHOOK_SECRET
    audit = AuditEvent.objects.get(action="integration.connected")
    assert (audit.actor_kind, audit.actor_id) == ("connect_link", str(link.pk))

    state = (
        api(agency_world.full)
        .get(f"/api/v1/workspaces/{agency_world.workspace.pk}/connect-links/{link.pk}")
        .json()
    )
    assert state["integrations"] == [
        {
            "key": "stripe",
            "state": "connected",
            "connection_id": str(connection_id),
            "webhook_url": webhook,
        },
        {"key": "calendly", "state": "offered"},
    ]
    assert state["completed"] is False
    assert STRIPE_KEY not in str(state)
    assert STRIPE_WEBHOOK_SECRET not in str(state)

    # Connecting the last offered integration completes the link; it then shows a clear page.
    client.post(
        path,
        {
            "csrfmiddlewaretoken": csrf,
            "integration": "calendly",
            "personal_access_token": CALENDLY_TOKEN,
        },
    )
    done = client.get(path)
    assert done.status_code == 200
    assert "All connected" in done.content.decode()
    again = client.post(path, {"csrfmiddlewaretoken": csrf, "integration": "stripe", **STRIPE})
    assert "All connected" in again.content.decode()
    assert Connection.objects.count() == 2
    state = (
        api(agency_world.full)
        .get(f"/api/v1/workspaces/{agency_world.workspace.pk}/connect-links/{link.pk}")
        .json()
    )
    assert state["completed"] is True


def test_revoke_stops_the_page_and_keeps_connections(agency_world, write, api):
    made = _make(agency_world, write).json()
    path = "/connect/" + _secret(made["url"])
    client = Client()
    client.post(path, {"integration": "stripe", **STRIPE})
    assert Connection.objects.count() == 1

    revoke_url = f"/api/v1/workspaces/{agency_world.workspace.pk}/connect-links/{made['id']}/revoke"
    revoked = write(agency_world.full, "POST", revoke_url)
    assert revoked.status_code == 200
    assert revoked.json()["revoked"] is True
    assert "url" not in revoked.json()

    page = client.get(path)
    assert page.status_code == 410
    assert "This link was withdrawn" in page.content.decode()
    posted = client.post(path, {"integration": "calendly", "personal_access_token": CALENDLY_TOKEN})
    assert posted.status_code == 410
    assert Connection.objects.count() == 1  # the earlier connection stays
    # Revoking again changes nothing and records nothing more.
    assert write(agency_world.full, "POST", revoke_url).status_code == 200
    assert AuditEvent.objects.filter(action="connect_link.revoked").count() == 1


def test_an_expired_or_unknown_link_shows_a_clear_page(agency_world, write):
    made = _make(agency_world, write).json()
    ConnectLink.objects.update(expires_at=timezone.now() - timedelta(minutes=1))
    client = Client()
    page = client.get("/connect/" + _secret(made["url"]))
    assert page.status_code == 410
    assert "This link has expired" in page.content.decode()
    assert client.get("/connect/not-a-real-secret").status_code == 404


@pytest.mark.parametrize(
    "key, values, ok",
    [
        ("stripe", STRIPE, True),
        ("stripe", {**STRIPE, "secret_key": "rk_" + "Z" * 24}, True),
        ("stripe", {"secret_key": STRIPE_KEY}, False),
        ("stripe", {**STRIPE, "webhook_secret": "whsec_short"}, False),
        ("stripe", {**STRIPE, "secret_key": "sk_live_" + "a" * 23}, False),
        ("stripe", {**STRIPE, "secret_key": "pk_live_" + "a" * 30}, False),
        ("calendly", {"personal_access_token": CALENDLY_TOKEN}, True),
        (
            "calendly",
            {"personal_access_token": CALENDLY_TOKEN, "webhook_signing_key": "k3y-0f-my-own"},
            True,
        ),
        ("calendly", {"personal_access_token": "abc.def"}, False),
        ("calendly", {"personal_access_token": "a.b.c"}, False),
        (
            "zoom",
            {
                "account_id": "AbCdEfGhIj12",
                "client_id": "k3yK3yK3y",
                "client_secret": "s" * 32,
                "webhook_secret_token": "t0k3n_" + "x" * 16,
            },
            True,
        ),
        (
            "zoom",
            {"account_id": "AbCdEfGhIj12", "client_id": "k3yK3yK3y", "client_secret": "s" * 32},
            False,
        ),
        (
            "hubspot",
            {
                "access_token": HUBSPOT_TOKEN,
                "client_secret": "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0",
            },
            True,
        ),
        ("hubspot", {"access_token": HUBSPOT_TOKEN}, False),
        ("hubspot", {"access_token": "pat-na1-notauuid", "client_secret": "x"}, False),
    ],
)
def test_credential_formats(key, values, ok):
    clean, errors = credentials_check(PROVIDERS[key], values)
    assert (not errors) is ok
    if ok:
        assert clean == values


def _offered_words(html: str, provider: str) -> str:
    item = re.search(rf'<li id="offered-{provider}"[^>]*>(.*?)</li>', html, re.S).group(1)
    return " ".join(re.sub(r"<[^>]+>", " ", item).split())


def test_the_client_the_owner_and_the_agency_see_one_state_in_the_same_words(
    agency_world, write, make_member
):
    from integrations import services as integrations  # noqa: PLC0415

    url = _make(agency_world, write, {"integrations": ["stripe"]}).json()["url"]
    path = "/connect/" + _secret(url)
    client = Client(enforce_csrf_checks=True)
    chosen = client.get(path + "?integration=stripe").content.decode()
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', chosen).group(1)
    client.post(path, {"csrfmiddlewaretoken": csrf, "integration": "stripe", **STRIPE})
    connection = Connection.objects.get()
    integrations.connection_fail(
        connection=connection,
        error=ProviderRefused("Stripe refused the key: Invalid API Key provided."),
    )
    failing = "Failing Stripe refused the key: paste a new restricted key."

    # The client's page: failing, in words, and open for a new credential.
    page = client.get(path)
    assert page.status_code == 200
    assert _offered_words(page.content.decode(), "stripe") == (
        f"Stripe (payments): {failing} paste a new credential"
    )
    # The Integrations page of the workspace.
    owner = make_member(agency_world.workspace, "owner")
    as_owner = Client()
    as_owner.force_login(owner.user)
    settings_html = as_owner.get(
        f"/settings/{agency_world.workspace.pk}/integrations/"
    ).content.decode()
    assert (
        '<span class="state state-failing" title="Stripe refused the key: paste a new '
        'restricted key.">Failing</span>'
    ) in settings_html
    assert "Connected " in settings_html and " through a connect link." in settings_html
    assert f"connect link {ConnectLink.objects.get().pk}" not in settings_html
    # The agency console.
    person = agency_world.agency.users.create(username="ops", email="ops@northwind.test")
    console = Client()
    console.force_login(person)
    console_html = console.get(f"/agency/{agency_world.agency.pk}/").content.decode()
    row = re.search(r'<li data-provider="stripe" data-state="failing">(.*?)</li>', console_html)
    assert " ".join(re.sub(r"<[^>]+>", " ", row.group(1)).split()) == f"Stripe : {failing}"

    # A new credential through the link replaces the failing one's, on the same URL.
    chosen = client.get(path + "?integration=stripe").content.decode()
    assert f"/hooks/stripe/{connection.pk}" in chosen
    assert 'id="replacing"' in chosen
    new_key = "sk_test_" + "R" * 24
    client.post(
        path,
        {
            "csrfmiddlewaretoken": csrf,
            "integration": "stripe",
            "secret_key": new_key,
            "webhook_secret": STRIPE_WEBHOOK_SECRET,
        },
    )
    (replaced,) = Connection.objects.all()
    assert (replaced.pk, replaced.state) == (connection.pk, "connected")
    assert integrations.connection_credentials(replaced) == {"secret_key": new_key}
    assert "All connected" in client.get(path).content.decode()
    console_html = console.get(f"/agency/{agency_world.agency.pk}/").content.decode()
    assert '<li data-provider="stripe" data-state="connected">' in console_html
    assert '<td class="link-state">completed</td>' in console_html


def test_a_link_does_not_replace_a_working_connection_and_says_why(agency_world, write):
    from audit.services import SYSTEM  # noqa: PLC0415
    from integrations import services as integrations  # noqa: PLC0415

    url = _make(agency_world, write, {"integrations": ["stripe", "calendly"]}).json()["url"]
    path = "/connect/" + _secret(url)
    working = integrations.connection_create(
        workspace=agency_world.workspace,
        provider="stripe",
        credentials={"secret_key": STRIPE_KEY, "webhook_secret": STRIPE_WEBHOOK_SECRET},
        actor=SYSTEM,
    )
    client = Client(enforce_csrf_checks=True)
    page = client.get(path).content.decode()
    assert _offered_words(page, "stripe") == "Stripe (payments): Connected Stripe is connected."
    assert 'id="choose-stripe"' not in page
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    refused = client.post(
        path,
        {
            "csrfmiddlewaretoken": csrf,
            "integration": "stripe",
            "secret_key": "sk_test_" + "R" * 24,
            "webhook_secret": STRIPE_WEBHOOK_SECRET,
        },
    )
    assert refused.status_code == 400
    assert (
        f"Stripe is already connected to {agency_world.workspace.name} and working. An owner "
        f"or admin of {agency_world.workspace.name} replaces its credentials on the "
        "Integrations page."
    ) in refused.content.decode().replace("&#x27;", "'")
    assert integrations.connection_credentials(Connection.objects.get(pk=working.pk)) == {
        "secret_key": STRIPE_KEY
    }


def test_a_read_provider_has_no_webhook_url_in_the_links_state(agency_world, write, api):
    """Meta Ads is read on a schedule: its connection has no webhook endpoint to paste, so
    the state names none (a URL there would answer 404); Stripe's keeps its own."""
    made = _make(agency_world, write, {"integrations": ["stripe", "meta"]}).json()
    link = ConnectLink.objects.get(pk=made["id"])
    for provider in ("stripe", "meta"):
        connection = Connection.objects.create(
            id=connection_id_for_link(link_id=link.pk, provider=provider),
            workspace=agency_world.workspace,
            provider=provider,
            state="connected",
        )
        link.connections.add(connection)
    state = (
        api(agency_world.full)
        .get(f"/api/v1/workspaces/{agency_world.workspace.pk}/connect-links/{link.pk}")
        .json()
    )
    stripe_id = connection_id_for_link(link_id=link.pk, provider="stripe")
    meta_id = connection_id_for_link(link_id=link.pk, provider="meta")
    assert state["integrations"] == [
        {
            "key": "stripe",
            "state": "connected",
            "connection_id": str(stripe_id),
            "webhook_url": f"{django_settings.BASE_URL}/hooks/stripe/{stripe_id}",
        },
        {"key": "meta", "state": "connected", "connection_id": str(meta_id)},
    ]
