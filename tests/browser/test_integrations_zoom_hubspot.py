"""Zoom and HubSpot on the Integrations page, in the browser: an owner connects each, the
deliveries the provider signs reach the webhook URL the page shows and become records, a
manager sets a webinar's pitch time, the owner names HubSpot's UTM properties, and a
disconnected connection refuses its webhooks."""

import hashlib
import hmac
import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import pytest
import vcr

import integrations.tasks  # noqa: F401 - registers the apply task the webhook sends
from integrations.models import Connection, Event
from tests.integrations.hubspot import conftest as hubspot
from tests.integrations.zoom import conftest as zoom
from workspaces.models import Lead, Registration, WebinarEvent

from .conftest import call_api, shot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MARCH = "from=2026-03-01&to=2026-03-31"
PLAIN_TOKEN = "qgg8vlvZRS6UYooatFL8Aw"
# The workspaces' time zone, which their pages write every time in.
NEW_YORK = ZoneInfo("America/New_York")
# HubSpot's answers, replayed; a request is answered only if its JSON body is the one
# recorded, so the contact read must ask for the properties the owner mapped. vcrpy
# patches http.client and urllib3 for the whole process, the live server's thread
# included; the test's own requests to the live server (on localhost) pass through.
hubspot_replay = vcr.VCR(
    cassette_library_dir=str(Path(__file__).parent / "cassettes"),
    record_mode="none",
    match_on=["method", "scheme", "host", "path", "query", "body"],
    decode_compressed_response=True,
    ignore_localhost=True,
)
# Each input of the connect form: its name, its type, and whether the webhook URL comes
# before it on the page.
FIELDS_SHOWN = """() => {
    const url = document.getElementById("webhook-url");
    return [...document.querySelectorAll("#connect-form input:not([type=hidden])")].map(
        (input) => [input.name, input.type,
                    !!(url.compareDocumentPosition(input) & Node.DOCUMENT_POSITION_FOLLOWING)]);
}"""


@pytest.fixture
def team(make_workspace, make_member, workspace_token, settings, live_server):
    """A New York workspace with an owner and a manager who sign in, and a read token."""
    # The webhook URL the page shows is the live server's, so the test can post to it.
    settings.BASE_URL = live_server.url
    workspace = make_workspace(
        name="Northwind Webinars", currency="USD", timezone="America/New_York"
    )
    return SimpleNamespace(
        workspace=workspace,
        owner=make_member(workspace, "owner", name="Olive Owner", email="olive@northwind.test"),
        manager=make_member(workspace, "manager", name="Mia Manager", email="mia@northwind.test"),
        token=workspace_token(workspace),
        url=f"/settings/{workspace.pk}/integrations/",
    )


def post_json(url: str, body: str, headers: dict) -> tuple[int, dict]:
    request = urllib.request.Request(
        url,
        data=body.encode(),
        method="POST",
        headers={"Content-Type": "application/json", **headers},
    )
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def zoom_delivery(url: str, payload: dict, secret: str = zoom.SECRET_TOKEN) -> tuple[int, dict]:
    """POST a payload signed as Zoom signs it: x-zm-signature is v0= and the hex
    HMAC-SHA256 of "v0:<x-zm-request-timestamp>:<body>" with the secret token."""
    body = json.dumps(payload)
    return post_json(url, body, zoom.zoom_headers(body, secret))


def hubspot_delivery(url: str, events: list[dict]) -> tuple[int, dict]:
    """POST events signed as HubSpot signs them: X-HubSpot-Signature-v3 is the base64
    HMAC-SHA256 of method + URL + body + X-HubSpot-Request-Timestamp (milliseconds)."""
    body = json.dumps(events)
    timestamp = int(time.time() * 1000)
    signature = hubspot.sign(hubspot.CLIENT_SECRET, "POST", url, body, timestamp)
    return post_json(
        url,
        body,
        {"X-HubSpot-Signature-v3": signature, "X-HubSpot-Request-Timestamp": str(timestamp)},
    )


def counters(page, section: str) -> dict[str, str]:
    return {
        name: page.text_content(f"{section} .events-{name}").strip()
        for name in ("received", "applied", "held", "refused")
    }


def connect(page, provider: str, values: dict[str, str]) -> str:
    """Fill the provider's connect form, the fields in the order the page asks for them;
    the webhook URL the page showed."""
    page.click(f"#connect-{provider}")
    webhook_url = page.text_content("#webhook-url").strip()
    for name, value in values.items():
        page.fill(f"input[name={name}]", value)
    page.click("#connect-submit")
    return webhook_url


def webinar_figures(live_server, token: str, event_id=None) -> tuple[dict, dict]:
    path = f"/api/v1/webinar?{MARCH}" + (f"&eventId={event_id}" if event_id else "")
    status, body = call_api(live_server, path, token)
    assert status == 200, body
    values = {key: field["value"] for key, field in body["data"].items() if key != "event"}
    return values, body["data"].get("event")


def test_connect_zoom_receive_its_webinar_and_set_the_pitch_time(
    page, live_server, team, backfills
):
    page.goto(team.url)
    sign_in(page, team.owner.email)
    assert urlsplit(page.url).path == team.url
    assert page.is_visible("#no-connections")

    with page.expect_navigation():
        page.click("#connect-zoom")
    # The credential first, then the webhook URL, then the secret token Zoom shows once
    # the URL is pasted in its event subscription.
    assert page.evaluate(FIELDS_SHOWN) == [
        ["account_id", "text", False],
        ["client_id", "text", False],
        ["client_secret", "password", False],
        ["webhook_secret_token", "password", True],
    ]
    page.go_back()
    webhook_url = connect(
        page,
        "zoom",
        {
            "account_id": zoom.ACCOUNT_ID,
            "client_id": zoom.CLIENT_ID,
            "client_secret": zoom.CLIENT_SECRET,
            "webhook_secret_token": zoom.SECRET_TOKEN,
        },
    )
    assert urlsplit(page.url).path == team.url
    connection = Connection.objects.get()
    assert (connection.provider, connection.state) == ("zoom", "connected")
    assert webhook_url == f"{live_server.url}/hooks/zoom/{connection.pk}"
    # The backfill the connection starts is sent to the worker, which is not run here:
    # nothing reaches Zoom.
    assert backfills == [connection.pk]
    section = f"#connection-{connection.pk}"
    assert page.text_content(f"{section} .webhook-url").strip() == webhook_url
    assert page.text_content(f"{section} .state").strip() == "Connected"
    assert page.text_content(f"{section} .last-event").strip() == "none yet"
    assert page.text_content("[role=status]").strip() == (
        f"Zoom's credentials are saved; its last 90 days are being read. Its webhook URL is "
        f"{webhook_url}"
    )
    content = page.content()
    assert zoom.CLIENT_SECRET not in content and zoom.SECRET_TOKEN not in content

    # Zoom's Validate button: the challenge, answered with the token's HMAC.
    challenge = {
        "payload": {"plainToken": PLAIN_TOKEN},
        "event_ts": 1654503849680,
        "event": "endpoint.url_validation",
    }
    encrypted = hmac.new(zoom.SECRET_TOKEN.encode(), PLAIN_TOKEN.encode(), hashlib.sha256)
    assert zoom_delivery(webhook_url, challenge) == (
        200,
        {"plainToken": PLAIN_TOKEN, "encryptedToken": encrypted.hexdigest()},
    )
    assert Event.objects.count() == 0
    # A delivery signed with another token is refused and only counted.
    status, answer = zoom_delivery(
        webhook_url, zoom.created("2026-03-01 09:00"), secret=zoom.OTHER_TOKEN
    )
    assert (status, answer["error"]["reason"]) == (400, "invalid_signature")

    # The webinar, two registrations, and Pat there from 17:02 to 18:25 UTC.
    for payload in (
        zoom.created("2026-03-01 09:00"),
        zoom.registered("2026-03-02 10:00", "pat@example.test", "Pat", "Lee", "reg-pat"),
        zoom.registered("2026-03-03 11:00", "quinn@example.test", "Quinn", "Moss", "reg-quinn"),
        zoom.participant("joined", "2026-03-05 17:02", "pat@example.test", "Pat L", "p-pat"),
        zoom.participant("left", "2026-03-05 18:25", "pat@example.test", "Pat L", "p-pat"),
    ):
        assert zoom_delivery(webhook_url, payload) == (200, {"received": True})
    assert sorted(
        (r.lead.email, r.lead.name, r.registered_at, r.joined_at, r.left_at)
        for r in Registration.objects.select_related("lead")
    ) == [
        (
            "pat@example.test",
            "Pat Lee",
            zoom.utc("2026-03-02 10:00"),
            zoom.utc("2026-03-05 17:02"),
            zoom.utc("2026-03-05 18:25"),
        ),
        ("quinn@example.test", "Quinn Moss", zoom.utc("2026-03-03 11:00"), None, None),
    ]

    page.reload()
    assert counters(page, section) == {
        "received": "5",
        "applied": "5",
        "held": "0",
        "refused": "1",
    }
    connection.refresh_from_db()
    assert page.text_content(f"{section} .last-event").strip() == (
        f"{connection.last_event_at.astimezone(NEW_YORK):%-d %b %Y, %H:%M}"
    )
    assert page.text_content("#held-count").strip() == "0"
    shot(page, "integrations-zoom.png")

    # No pitch time yet: the stay figures are unavailable.
    values, _event = webinar_figures(live_server, team.token)
    assert (values["stayed_to_pitch"], values["stay_rate"]) == (None, None)

    # The manager sets it, from the Zoom connection's link, in New York time.
    page.click("header form[action='/accounts/logout/'] button")
    page.goto(team.url)
    sign_in(page, team.manager.email)
    assert urlsplit(page.url).path == team.url
    # A manager sees the connections but neither connects nor disconnects.
    assert page.query_selector("#connect") is None
    assert page.query_selector(f"{section} a.disconnect") is None
    page.click(f"{section} a.options")
    webinars_url = f"/settings/{team.workspace.pk}/webinars/"
    assert urlsplit(page.url).path == webinars_url
    event = WebinarEvent.objects.get()
    form = f"form.webinar[data-event-id='{event.pk}']"
    assert page.text_content(f"{form} h3").strip() == "Scale your offer"
    assert page.text_content(f"{form} p.muted").strip() == (
        f"Starts 5 Mar 2026, 12:00 · id {zoom.WEBINAR_ID}"
    )
    assert page.input_value(f"#pitch-{event.pk}") == ""
    page.fill(f"#pitch-{event.pk}", "2026-03-05T13:00")
    page.click(f"{form} button[type=submit]")
    assert urlsplit(page.url).path == webinars_url
    assert page.text_content("[role=status]").strip() == (
        "Saved the pitch time of Scale your offer."
    )
    assert page.input_value(f"#pitch-{event.pk}") == "2026-03-05T13:00"
    shot(page, "webinar-pitch.png")
    event.refresh_from_db()
    assert event.pitch_at == zoom.utc("2026-03-05 18:00")

    # 13:00 in New York is 18:00 UTC: Pat (there until 18:25) stayed; Quinn never came.
    values, shown_event = webinar_figures(live_server, team.token, event.pk)
    assert shown_event == {
        "id": str(event.pk),
        "name": "Scale your offer",
        "starts_at": "2026-03-05T17:00:00Z",
        "pitch_at": "2026-03-05T18:00:00Z",
    }
    assert values == {
        "registrations": 2,
        "attended": 1,
        "stayed_to_pitch": 1,
        "booked": 0,
        "attendance_rate": 0.5,
        "stay_rate": 1.0,
        "booking_rate": 0.0,
    }


def test_connect_hubspot_map_its_utm_properties_then_disconnect(page, live_server, team, backfills):
    page.goto(team.url)
    sign_in(page, team.owner.email)
    with page.expect_navigation():
        page.click("#connect-hubspot")
    # The token first, then the webhook URL, then the app's client secret that signs it.
    assert page.evaluate(FIELDS_SHOWN) == [
        ["access_token", "password", False],
        ["client_secret", "password", True],
    ]
    page.go_back()
    webhook_url = connect(
        page,
        "hubspot",
        {"access_token": hubspot.ACCESS_TOKEN, "client_secret": hubspot.CLIENT_SECRET},
    )
    assert urlsplit(page.url).path == team.url
    connection = Connection.objects.get()
    assert (connection.provider, connection.state) == ("hubspot", "connected")
    assert webhook_url == f"{live_server.url}/hooks/hubspot/{connection.pk}"
    assert backfills == [connection.pk]
    section = f"#connection-{connection.pk}"
    assert page.text_content(f"{section} .webhook-url").strip() == webhook_url
    assert page.text_content(f"{section} .state").strip() == "Connected"
    content = page.content()
    assert hubspot.ACCESS_TOKEN not in content and hubspot.CLIENT_SECRET not in content

    # The owner names the portal's properties for the source and the campaign.
    page.click(f"{section} a.options")
    mapping_url = f"{team.url}{connection.pk}/hubspot/"
    assert urlsplit(page.url).path == mapping_url
    fields = ("utm_source", "utm_medium", "utm_campaign", "utm_content")
    assert [page.input_value(f"#id_{field}") for field in fields] == list(fields)
    page.fill("#id_utm_source", "hs_analytics_source")
    page.fill("#id_utm_campaign", "hs_analytics_source_data_1")
    page.click("#save-utm-properties")
    assert urlsplit(page.url).path == mapping_url
    assert page.text_content("[role=status]").strip() == (
        "UTM properties saved; contacts read from now on use them."
    )
    mapped = ["hs_analytics_source", "utm_medium", "hs_analytics_source_data_1", "utm_content"]
    assert [page.input_value(f"#id_{field}") for field in fields] == mapped
    connection.refresh_from_db()
    assert connection.options["utm_properties"] == dict(zip(fields, mapped, strict=True))

    page.click("#back-to-integrations")
    assert urlsplit(page.url).path == team.url
    assert set(counters(page, section).values()) == {"0"}

    # HubSpot tells of a new contact and of a change to it, in one delivery; applying them
    # reads the contact once, through HubSpot's library in the server's thread, and the
    # replay answers it.
    events = [
        hubspot.created(9101, 301, "2026-03-04 10:15"),
        hubspot.changed(
            9102, 301, "2026-03-04 10:16", "hs_analytics_source_data_1", "spring-launch"
        ),
    ]
    with hubspot_replay.use_cassette("hubspot_contact_read.yaml") as cassette:
        answer = hubspot_delivery(webhook_url, events)
        assert (cassette.play_count, cassette.all_played) == (1, True)
    assert answer == (200, {"received": True})
    connection.refresh_from_db()
    assert (connection.state, connection.last_error) == ("connected", "")

    page.reload()
    assert counters(page, section) == {
        "received": "2",
        "applied": "2",
        "held": "0",
        "refused": "0",
    }
    shot(page, "integrations-hubspot.png")
    lead = Lead.objects.get()
    assert (
        lead.external_id,
        lead.email,
        lead.name,
        lead.created_at,
        lead.utm_source,
        lead.utm_medium,
        lead.utm_campaign,
        lead.utm_content,
    ) == (
        "hubspot:301",
        "lin.park@example.test",
        "Lin Park",
        hubspot.utc("2026-03-04 10:15"),
        "PAID_SOCIAL",
        "paid_social",
        "spring-launch",
        "",
    )
    status, body = call_api(live_server, f"/api/v1/leads?{MARCH}", team.token)
    assert status == 200, body
    assert [
        {key: row[key] for key in ("name", "email", "created_at", "status", *fields)}
        for row in body["data"]["leads"]
    ] == [
        {
            "name": "Lin Park",
            "email": "lin.park@example.test",
            "created_at": "2026-03-04T10:15:00Z",
            "status": "new",
            "utm_source": "PAID_SOCIAL",
            "utm_medium": "paid_social",
            "utm_campaign": "spring-launch",
            "utm_content": "(none)",
        }
    ]

    # The owner disconnects HubSpot: the page says so and its webhooks answer 410.
    page.click(f"{section} a.disconnect")
    page.click("#confirm-disconnect")
    assert urlsplit(page.url).path == team.url
    assert page.text_content("[role=status]").strip() == (
        "HubSpot is disconnected: its webhooks are refused from now on."
    )
    assert page.text_content(f"{section} .state").strip() == "Disconnected"
    assert page.get_attribute(section, "data-state") == "disconnected"
    connection.refresh_from_db()
    assert page.text_content(f"{section} p.muted").strip() == (
        "HubSpot is disconnected: its webhooks are refused. Disconnected "
        f"{connection.disconnected_at.astimezone(NEW_YORK):%-d %b %Y, %H:%M}."
    )
    for gone in (".webhook-url", "a.options", "a.disconnect"):
        assert page.query_selector(f"{section} {gone}") is None, gone
    later = [hubspot.changed(9103, 301, "2026-03-06 09:00", "lastname", "Park-Lee")]
    assert hubspot_delivery(webhook_url, later) == (
        410,
        {
            "error": {
                "reason": "connection_disconnected",
                "message": "This connection was disconnected: remove the webhook endpoint at "
                "the provider.",
            }
        },
    )
    assert Event.objects.count() == 2
