"""The Zoom deliveries bench/webhooks.py times are the ones the mapping expects: signed as
Zoom signs, they make one registration per attendee on existing leads, with the join and
leave they carry; and its cleanup leaves the database's counts as they were."""

import importlib.util
import json
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client

from integrations.models import Connection, Event
from workspaces.models import Lead, Registration

from .conftest import SECRET_TOKEN, utc, zoom_connection

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]


def bench_module():
    """bench/webhooks.py, loaded as a module; the import paths it adds are taken back (its
    folder holds scripts named like installed packages)."""
    path = list(sys.path)
    spec = importlib.util.spec_from_file_location("bench_webhooks", ROOT / "bench" / "webhooks.py")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = path
    return module


@pytest.fixture(scope="module")
def bench():
    return bench_module()


def webinar_run(bench, ws, connection):
    """Four attendees, existing leads, of a webinar that starts 2026-03-05 17:00 UTC: the
    setup's deliveries, then the participants'."""
    leads = [
        Lead.objects.create(
            workspace=ws,
            external_id=f"l{i}",
            name=f"Lead {i}",
            email=f"lead{i}@example.test",
            created_at=utc("2026-01-01 00:00"),
        )
        for i in range(4)
    ]
    webinar = {**bench.zoom_webinar(ws.pk, "t"), "start_time": "2026-03-05T17:00:00Z"}
    start = utc("2026-03-05 17:00")
    attendees = [
        bench.Attendee(i, len(leads), lead.email, lead.name, start) for i, lead in enumerate(leads)
    ]
    account_id = connection.pk.hex[:22]
    setup = bench.zoom_setup_bodies(webinar, attendees, account_id)
    timed = bench.zoom_participant_bodies(webinar, attendees, account_id)
    return webinar, setup, timed


def post_all(bench, committed, connection, bodies) -> list:
    client = Client()
    answers = []
    for body in bodies:
        with committed():
            answer = client.post(
                f"/hooks/zoom/{connection.pk}",
                data=body,
                content_type="application/json",
                headers=bench.zoom_headers(body, SECRET_TOKEN),
            )
        answers.append((answer.status_code, answer.json()))
    return answers


def test_the_participants_make_the_registrations_on_existing_leads(
    bench, committed, make_workspace
):
    ws = make_workspace()
    connection = zoom_connection(ws)
    webinar, setup, timed = webinar_run(bench, ws, connection)
    assert [json.loads(body)["event"] for body in timed] == [
        *["webinar.participant_joined"] * 4,
        *["webinar.participant_left"] * 4,
    ]

    answers = post_all(bench, committed, connection, setup + timed)

    assert answers == [(200, {"received": True})] * 13
    states = list(Event.objects.filter(connection=connection).values_list("state", flat=True))
    assert states == ["applied"] * 13
    assert Lead.objects.filter(workspace=ws).count() == 4
    registrations = {
        r.lead.email: (r.external_id, r.registered_at, r.joined_at, r.left_at)
        for r in Registration.objects.filter(workspace=ws).select_related("lead")
    }
    # Attendee 2 of 4: registered halfway through the week before (Zoom sends 350 ms
    # later), joined halfway through the five minutes from 16:58, left an hour later.
    assert registrations["lead2@example.test"] == (
        f"zoom:{webinar['id']}:lead2@example.test",
        utc("2026-03-02 04:30") + timedelta(milliseconds=350),
        utc("2026-03-05 17:00:30"),
        utc("2026-03-05 18:00:30"),
    )
    assert sorted(registrations) == [f"lead{i}@example.test" for i in range(4)]
    assert [registrations[f"lead{i}@example.test"][2] for i in range(4)] == [
        utc("2026-03-05 16:58"),
        utc("2026-03-05 16:59:15"),
        utc("2026-03-05 17:00:30"),
        utc("2026-03-05 17:01:45"),
    ]


def test_a_delivery_signed_with_another_secret_is_refused(bench, committed, make_workspace):
    ws = make_workspace()
    connection = zoom_connection(ws)
    _webinar, setup, _timed = webinar_run(bench, ws, connection)
    body = setup[0]
    with committed():
        answer = Client().post(
            f"/hooks/zoom/{connection.pk}",
            data=body,
            content_type="application/json",
            headers=bench.zoom_headers(body, "someOtherSecretToken0000"),
        )
    assert answer.status_code == 400
    assert answer.json()["error"] == {
        "reason": "invalid_signature",
        "message": "The x-zm-signature header does not match this endpoint's secret token.",
    }
    assert not Event.objects.filter(connection=connection).exists()


def test_the_cleanup_leaves_the_counts_as_they_were(bench, committed, make_workspace):
    ws = make_workspace()
    before = bench.zoom_counts(ws.pk)
    connection = zoom_connection(ws)
    _webinar, setup, timed = webinar_run(bench, ws, connection)
    post_all(bench, committed, connection, setup + timed)
    # A lead the mapping would make (an email no lead has) is removed too.
    stranger = json.loads(timed[0])
    stranger["event_ts"] += 1
    stranger["payload"]["object"]["participant"].update(
        email="new@example.test", id="x1", participant_uuid="X1"
    )
    post_all(bench, committed, connection, [json.dumps(stranger).encode()])
    assert Lead.objects.filter(workspace=ws, external_id="zoom:new@example.test").count() == 1

    removed = bench.zoom_cleanup(connection)

    assert removed == {
        "registrations": 5,
        "webinar_events": 1,
        "leads": 1,
        "events": 14,
        "audit_events": 15,
    }
    after = bench.zoom_counts(ws.pk)
    assert after == {**before, "leads": 4}
    assert not Connection.objects.filter(pk=connection.pk).exists()
