"""The Zoom backfill: Zoom's API answers replayed with respx from recorded responses in
Zoom's documented shapes (recorded/), page by page, through the same mapping as the
webhooks."""

import base64
import json
from pathlib import Path

import httpx
import pytest
import respx

from integrations import services
from integrations.base import ProviderError
from integrations.models import Connection, Event
from integrations.zoom import backfill
from workspaces.models import Registration, WebinarEvent

from .conftest import (
    ACCOUNT_ID,
    CLIENT_ID,
    CLIENT_SECRET,
    WEBINAR_ID,
    participant,
    registered,
    utc,
)

pytestmark = pytest.mark.django_db

RECORDED = Path(__file__).parent / "recorded"
API = "https://api.zoom.us/v2"
TOKEN = "https://zoom.us/oauth/token"
CREDENTIALS = {"account_id": ACCOUNT_ID, "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET}
W, SPRING = str(WEBINAR_ID), "85555555555"
# 90 days before 20 March 2026, 00:00 UTC.
SINCE = int(utc("2025-12-20 00:00").timestamp())


def recorded(name, status=200, **headers):
    return httpx.Response(status, json=json.loads((RECORDED / name).read_text()), headers=headers)


@pytest.fixture(autouse=True)
def clock(monkeypatch):
    monkeypatch.setattr(backfill, "_now", lambda: utc("2026-03-20 00:00"))


@pytest.fixture
def waits(monkeypatch):
    slept = []
    monkeypatch.setattr(backfill, "_sleep", slept.append)
    return slept


def run(connection, cursor=None):
    """Every page read and recorded as the backfill task records it; the cursors stored."""
    cursors = []
    for page in services.provider_get("zoom").backfill(
        connection=connection, credentials=CREDENTIALS, cursor=cursor
    ):
        services.backfill_page_record(connection=connection, page=page)
        connection.refresh_from_db()
        cursors.append(connection.backfill)
    return cursors


def registrations():
    return sorted(
        (r.external_id, r.lead.email, r.lead.name, r.registered_at, r.joined_at, r.left_at)
        for r in Registration.objects.select_related("lead")
    )


@respx.mock
def test_pages_of_webinars_registrants_and_participants_make_the_records_once(
    school, zoom_deliver, waits
):
    # Webhooks already brought Pat's registration and first join: the backfill makes no
    # second registration, and the records are the same as from either alone.
    zoom_deliver(
        school.connection,
        registered("2026-03-02 10:00", "pat@example.test", "Pat", "Lee", "reg-pat"),
    )
    zoom_deliver(
        school.connection,
        participant("joined", "2026-03-05 17:02", "pat@example.test", "Pat L", "p-pat"),
    )
    token = respx.post(TOKEN).mock(return_value=recorded("oauth_token.json"))
    webinars = respx.get(f"{API}/users/me/webinars").mock(
        side_effect=[recorded("webinars_page_1.json"), recorded("webinars_page_2.json")]
    )
    registrants = respx.get(f"{API}/webinars/{W}/registrants").mock(
        side_effect=[
            recorded("error_429.json", 429, **{"Retry-After": "2"}),
            recorded("registrants_88812345678_page_1.json"),
            recorded("registrants_88812345678_page_2.json"),
        ]
    )
    report = respx.get(f"{API}/report/webinars/4444AAAiAAAAAiAiAiiAii%3D%3D/participants").mock(
        return_value=recorded("report_participants_88812345678.json")
    )
    spring = respx.get(f"{API}/webinars/{SPRING}/registrants").mock(
        return_value=recorded("registrants_85555555555.json")
    )

    cursors = run(Connection.objects.get())

    assert [
        (
            c.get("stage"),
            c.get("index"),
            c.get("resource"),
            c.get("token"),
            [w["id"] for w in c.get("webinars", [])],
        )
        for c in cursors
    ] == [
        ("webinars", None, None, "Tva2CuIdTgsv8wAnhyAdU3m06Y2HuLQtlh3", [WEBINAR_ID]),
        ("people", 0, "registrants", None, [WEBINAR_ID, 85555555555]),
        ("people", 0, "registrants", "w7587w4eiyfsudgf", [WEBINAR_ID, 85555555555]),
        ("people", 0, "participants", None, [WEBINAR_ID, 85555555555]),
        ("people", 1, "registrants", None, [WEBINAR_ID, 85555555555]),
        ("people", 1, "participants", None, [WEBINAR_ID, 85555555555]),
        (None, None, None, None, []),
    ]
    assert {c.get("since") for c in cursors[:-1]} == {SINCE}
    assert Connection.objects.get().backfill_finished_at is not None

    # One token, bought with the app's credentials.
    assert token.call_count == 1
    asked = token.calls[0].request
    assert dict(asked.url.params) == {"grant_type": "account_credentials", "account_id": ACCOUNT_ID}
    basic = base64.b64encode(f"{CLIENT_ID}:{CLIENT_SECRET}".encode()).decode()
    assert asked.headers["Authorization"] == f"Basic {basic}"
    bearer = json.loads((RECORDED / "oauth_token.json").read_text())["access_token"]
    assert webinars.calls[0].request.headers["Authorization"] == f"Bearer {bearer}"
    # Page after page by next_page_token; one wait of Retry-After's 2 seconds after the 429.
    assert [dict(call.request.url.params) for call in webinars.calls] == [
        {"type": "scheduled", "page_size": "300"},
        {
            "type": "scheduled",
            "page_size": "300",
            "next_page_token": "Tva2CuIdTgsv8wAnhyAdU3m06Y2HuLQtlh3",
        },
    ]
    assert [dict(call.request.url.params) for call in registrants.calls] == [
        {"page_size": "300"},
        {"page_size": "300"},
        {"page_size": "300", "next_page_token": "w7587w4eiyfsudgf"},
    ]
    assert waits == [2]
    assert (report.call_count, spring.call_count) == (1, 1)
    # The spring webinar has not started: no report is asked for.
    assert not [
        c for c in respx.calls if SPRING in str(c.request.url) and "report" in str(c.request.url)
    ]

    # Last year's webinar is older than 90 days: left out.
    assert sorted(WebinarEvent.objects.values_list("external_id", "name", "starts_at")) == [
        (SPRING, "Spring masterclass", utc("2026-04-02 17:00")),
        (W, "Scale your offer, live", utc("2026-03-05 17:00")),
    ]
    assert registrations() == [
        (
            f"zoom:{SPRING}:ann@example.test",
            "ann@example.test",
            "Ann Park",
            utc("2026-03-12 08:30"),
            None,
            None,
        ),
        (
            f"zoom:{W}:pat@example.test",
            "pat@example.test",
            "Pat Lee",
            utc("2026-03-02 10:00"),
            utc("2026-03-05 17:02"),
            utc("2026-03-05 18:25"),
        ),
        (
            f"zoom:{W}:quinn@example.test",
            "quinn@example.test",
            "Quinn Moss",
            utc("2026-03-03 11:00"),
            utc("2026-03-05 17:05"),
            utc("2026-03-05 17:50"),
        ),
        (
            f"zoom:{W}:rae@example.test",
            "rae@example.test",
            "Rae",
            utc("2026-03-04 12:00"),
            None,
            None,
        ),
    ]
    # The dial-in caller has no email: nothing to place, not stored.
    assert set(Event.objects.filter(source="backfill").values_list("state", flat=True)) == {
        "applied"
    }
    # 2 webinars, 4 registrants, 3 sessions joined and left; Pat's registration is the
    # webhook's own event (same name, webinar, time and registrant): stored once.
    assert Event.objects.filter(source="backfill").count() == 2 + 3 + 6
    assert Event.objects.filter(source="webhook").count() == 2
    # Running it all again (at the same moment) stores nothing new: every item is the same
    # event again. At a later moment only the webinars' snapshots would be new events.
    before = Event.objects.count()
    respx.get(f"{API}/users/me/webinars").mock(
        side_effect=[recorded("webinars_page_1.json"), recorded("webinars_page_2.json")]
    )
    respx.get(f"{API}/webinars/{W}/registrants").mock(
        side_effect=[
            recorded("registrants_88812345678_page_1.json"),
            recorded("registrants_88812345678_page_2.json"),
        ]
    )
    run(Connection.objects.get())
    assert Event.objects.count() == before
    assert Registration.objects.count() == 4


@respx.mock
def test_a_restarted_backfill_resumes_at_its_cursor(school):
    respx.post(TOKEN).mock(return_value=recorded("oauth_token.json"))
    listed = respx.get(f"{API}/users/me/webinars").mock(
        return_value=recorded("webinars_page_2.json")
    )
    report = respx.get(f"{API}/report/webinars/4444AAAiAAAAAiAiAiiAii%3D%3D/participants").mock(
        return_value=recorded("report_participants_88812345678.json")
    )
    spring = respx.get(f"{API}/webinars/{SPRING}/registrants").mock(
        return_value=recorded("registrants_85555555555.json")
    )
    a_webinar = json.loads((RECORDED / "webinars_page_1.json").read_text())["webinars"][0]
    b_webinar = json.loads((RECORDED / "webinars_page_2.json").read_text())["webinars"][0]
    cursor = {
        "since": SINCE,
        "stage": "people",
        "index": 0,
        "resource": "participants",
        "token": "resume-here",
        "webinars": [backfill._webinar_object(a_webinar), backfill._webinar_object(b_webinar)],
    }
    cursors = run(Connection.objects.get(), cursor=cursor)
    assert listed.call_count == 0
    assert dict(report.calls[0].request.url.params) == {
        "page_size": "300",
        "next_page_token": "resume-here",
    }
    assert spring.call_count == 1
    assert [c.get("resource") for c in cursors] == ["registrants", "participants", None]
    # Attendance without registrations in this run: each attendee registered at first join.
    assert registrations() == [
        (
            f"zoom:{SPRING}:ann@example.test",
            "ann@example.test",
            "Ann Park",
            utc("2026-03-12 08:30"),
            None,
            None,
        ),
        (
            f"zoom:{W}:pat@example.test",
            "pat@example.test",
            "Pat L",
            utc("2026-03-05 17:02"),
            utc("2026-03-05 17:02"),
            utc("2026-03-05 18:25"),
        ),
        (
            f"zoom:{W}:quinn@example.test",
            "quinn@example.test",
            "Quinn",
            utc("2026-03-05 17:05"),
            utc("2026-03-05 17:05"),
            utc("2026-03-05 17:50"),
        ),
    ]


@respx.mock
def test_refused_credentials_or_endless_429_are_provider_errors(school, waits):
    respx.post(TOKEN).mock(return_value=recorded("error_invalid_client.json", 400))
    with pytest.raises(ProviderError, match="refused the app's account ID"):
        list(backfill.pages(connection=school.connection, credentials=CREDENTIALS, cursor=None))
    respx.post(TOKEN).mock(return_value=recorded("oauth_token.json"))
    respx.get(f"{API}/users/me/webinars").mock(return_value=recorded("error_429.json", 429))
    with pytest.raises(ProviderError, match="429"):
        list(backfill.pages(connection=school.connection, credentials=CREDENTIALS, cursor=None))
    assert waits == [1, 2, 4, 8, 16, 32]


@respx.mock
def test_an_expired_token_is_bought_again_once(school):
    token = respx.post(TOKEN).mock(return_value=recorded("oauth_token.json"))
    respx.get(f"{API}/users/me/webinars").mock(
        side_effect=[
            httpx.Response(401, json={"code": 124, "message": "Invalid access token."}),
            httpx.Response(200, json={"next_page_token": "", "webinars": []}),
        ]
    )
    pages = list(backfill.pages(connection=school.connection, credentials=CREDENTIALS, cursor=None))
    assert [(page.items, page.cursor) for page in pages] == [([], None)]
    assert token.call_count == 2


def test_a_uuid_with_slashes_is_encoded_twice():
    assert backfill._uuid_path("/ab//cd==") == "%252Fab%252F%252Fcd%253D%253D"
    assert backfill._uuid_path("4444AAAiAAAAAiAiAiiAii==") == "4444AAAiAAAAAiAiAiiAii%3D%3D"
