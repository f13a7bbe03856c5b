"""The HubSpot backfill: the search API's pages replayed, through the same leads as the
webhooks."""

import pytest

from integrations import services
from integrations.base import ProviderError
from integrations.hubspot import backfill, client
from integrations.models import Connection, Event
from workspaces.models import Lead

from .conftest import ACCESS_TOKEN, created, replay

pytestmark = pytest.mark.django_db

SEARCH = "https://api.hubapi.com/crm/v3/objects/contacts/search"
CREDENTIALS = {"access_token": ACCESS_TOKEN}


@pytest.fixture
def waits(monkeypatch):
    slept = []
    monkeypatch.setattr(client, "_sleep", slept.append)
    return slept


def search_body(since, after=None):
    body = {
        "filterGroups": [
            {"filters": [{"propertyName": "createdate", "operator": "GTE", "value": str(since)}]}
        ],
        "sorts": [{"propertyName": "createdate", "direction": "ASCENDING"}],
        "properties": [
            "email",
            "firstname",
            "lastname",
            "createdate",
            "phone",
            "hs_facebook_click_id",
            "hs_google_click_id",
            "utm_source",
            "utm_medium",
            "utm_campaign",
            "utm_content",
        ],
        "limit": 100,
    }
    if after is not None:
        body["after"] = after
    return body


def test_pages_make_the_leads_once_beside_the_webhooks(portal, deliver, sent, waits):
    # A webhook already brought Ada: the backfill makes no second lead.
    with replay.use_cassette("contacts_read_any.yaml"):
        deliver(portal.connection, [created(9001, 101, "2026-03-02 09:00")])
    connection = Connection.objects.get()
    cursors = []
    with replay.use_cassette("contacts_search.yaml") as cassette:
        for page in services.provider_get("hubspot").backfill(
            connection=connection, credentials=CREDENTIALS, cursor=None
        ):
            services.backfill_page_record(connection=connection, page=page)
            connection.refresh_from_db()
            cursors.append(connection.backfill)
        assert cassette.play_count == 3
    since = cursors[0]["since"]
    assert cursors == [{"since": since, "after": "2"}, {}]
    assert connection.backfill_finished_at is not None
    searches = [call for call in sent if call.url == SEARCH]
    # 90 days back, oldest first; the page after the 429 asked again, once waited.
    assert [call.body for call in searches] == [
        search_body(since),
        search_body(since, "2"),
        search_body(since, "2"),
    ]
    assert waits == [1]
    assert sorted(Lead.objects.values_list("external_id", "name", "email", "utm_source")) == [
        ("hubspot:101", "Ada Lovelace", "ada@example.test", "google"),
        ("hubspot:102", "Bo Chen", "bo@example.test", "facebook"),
        ("import-pat", "Pat Doe", "pat@example.test", "newsletter"),
    ]
    assert sorted(
        Event.objects.filter(source="backfill").values_list("object_id", "event_type", "state")
    ) == [
        ("101", "contact.creation", "applied"),
        ("102", "contact.creation", "applied"),
        ("103", "contact.creation", "applied"),
    ]
    # The backfill's items carry the contact as read: no batch read after the webhook's.
    assert [call.url for call in sent].count(SEARCH) == 3
    assert len(sent) == 4


def test_a_restarted_backfill_resumes_at_its_cursor(portal, sent):
    cursor = {"since": 1767225600000, "after": "2"}
    with replay.use_cassette("contacts_search_resumed.yaml"):
        pages = list(
            backfill.pages(connection=portal.connection, credentials=CREDENTIALS, cursor=cursor)
        )
    assert [page.cursor for page in pages] == [None]
    assert [call.body for call in sent] == [search_body(1767225600000, "2")]
    assert [item.described.object_id for item in pages[0].items] == ["103"]


def test_an_older_read_does_not_undo_a_newer_one(portal, deliver):
    """A backfill item read before a webhook's read was applied is left alone."""
    with replay.use_cassette("contacts_search_resumed.yaml"):
        [page] = backfill.pages(
            connection=portal.connection, credentials=CREDENTIALS, cursor={"since": 1767225600000}
        )
    with replay.use_cassette("contacts_read.yaml", allow_playback_repeats=True):
        deliver(portal.connection, [created(9004, 103, "2026-03-04 10:00")])
    services.backfill_page_record(connection=portal.connection, page=page)
    assert list(Event.objects.filter(source="backfill").values_list("state", "hold_reason")) == [
        ("ignored", "Contact 103 was read again since.")
    ]


def test_endless_429_is_a_provider_error(portal, waits):
    with (
        replay.use_cassette("contacts_search_limited.yaml"),
        pytest.raises(ProviderError, match="kept answering 429"),
    ):
        list(backfill.pages(connection=portal.connection, credentials=CREDENTIALS, cursor=None))
    assert waits == [1, 2, 4, 8, 16, 32]
