"""Zoom events about one person applied by several workers at the same moment
(PostgreSQL: real concurrency): one lead, one registration, every event applied."""

import pytest

from integrations import services
from integrations.models import Event
from tests.conftest import at_once
from workspaces.models import Lead, Registration

from .conftest import WEBINAR_ID, participant, registered, utc, zoom_connection

pytestmark = pytest.mark.postgres


def test_events_of_one_new_person_applied_at_once_make_one_lead(transactional_db, make_workspace):
    ws = make_workspace()
    connection = zoom_connection(ws)
    payloads = [
        registered("2026-03-02 10:00", "pat@example.test", "Pat", "Lee", "reg-pat"),
        participant("joined", "2026-03-05 17:02", "pat@example.test", "Pat L", "p-pat"),
        participant("left", "2026-03-05 17:30", "pat@example.test", "Pat L", "p-pat"),
        participant("joined", "2026-03-05 17:40", "pat@example.test", "Pat L", "p-pat"),
        participant("left", "2026-03-05 18:25", "pat@example.test", "Pat L", "p-pat"),
        # The same person in another webinar: the same lead.
        {
            **registered("2026-03-03 10:00", "pat@example.test", "Pat", "Lee", "reg-pat-2"),
            "payload": {
                "account_id": "a",
                "object": {
                    **registered("2026-03-03 10:00", "pat@example.test", "Pat", "Lee", "reg-pat-2")[
                        "payload"
                    ]["object"],
                    "id": 77700000000,
                },
            },
        },
    ]
    provider = services.provider_get("zoom")
    stored = [
        services.event_receive(
            connection=connection, described=provider.describe(payload), payload=payload
        ).pk
        for payload in payloads
    ]
    at_once(len(stored), lambda n: services.event_apply(event_id=stored[n]))

    assert set(Event.objects.values_list("state", flat=True)) == {"applied"}
    assert list(Lead.objects.values_list("email", "name", "created_at")) == [
        ("pat@example.test", "Pat Lee", utc("2026-03-02 10:00"))
    ]
    assert sorted(
        Registration.objects.values_list("event__external_id", "joined_at", "left_at")
    ) == [
        ("77700000000", None, None),
        (str(WEBINAR_ID), utc("2026-03-05 17:02"), utc("2026-03-05 18:25")),
    ]
