"""Every figures query run compiled (core.compiled.CompiledQuery) answers what its
queryset answers, in every shape the selectors use."""

import json
from datetime import date, timedelta

import pytest

from audit.models import AuditEvent
from audit.rendering import event_json
from figures.period import Period
from figures.selectors.acquisition import cohort_query
from figures.selectors.audit_events import audit_query
from figures.selectors.base import bucket_start, buckets_params
from figures.selectors.calls import CALLS_COUNT_KEYS, calls_totals
from figures.selectors.eod import eod_query
from figures.selectors.funnel import funnel_query
from figures.selectors.journey import KINDS, journey_query
from figures.selectors.leads import attribution_query, leads_query
from figures.selectors.outcomes import outcomes_query
from figures.selectors.payments import (
    commission_members,
    commission_totals,
    payments_part,
    slot_totals,
)
from figures.selectors.series import _series_rows
from figures.selectors.speed_to_lead import speed_query
from figures.selectors.webinar import webinar_query
from tests.core.test_compiled_query import normal, plain
from tests.figures.conftest import at
from workspaces.models import Outcome

pytestmark = pytest.mark.django_db

NOW = at("2026-03-20 12:00")


@pytest.fixture
def dataset(ws, rec, make_member, calls_dataset):
    closer = make_member(ws, "closer", name="Ann", joined_at=date(2026, 3, 4))
    setter = make_member(ws, "setter", name="Bob")
    rec.rule(closer, basis="cash_collected", slot="closer", rate="0.1")
    rec.rule(setter, basis="revenue_booked", slot="setter", rate="0.05")
    lead = rec.lead("2026-03-01 09:00", name="Lia", setter=setter)
    rec.touch(lead, "2026-03-01 09:05", member=closer, channel="sms")
    event = rec.webinar("2026-03-01 18:00", name="Launch")
    rec.registration(event, lead=lead, joined="2026-03-01 18:01")
    call = rec.call(
        "2026-03-04 10:00", lead=lead, closer=closer, setter=setter, attendance="showed"
    )
    rec.outcome("no_sale", call=call, member=closer, reason="price")
    rec.outcome("no_sale", lead=lead, member=closer, when="2026-03-05 10:00", reason="")
    sale = rec.sale(200000, "2026-03-04 11:05", lead=lead, closer=closer, setter=setter)
    payment = rec.payment(sale, 50000, "2026-03-04 11:10")
    rec.refund(payment, 10000, "2026-03-20 09:00")
    rec.funnel_event(rec.funnel(), lead, "opt-in", "2026-03-01 09:00:30")
    for day in ("2026-03-02", "2026-03-05", "2026-03-08"):
        rec.eod(closer, day)
    rec.eod(setter, "2026-03-03")
    return closer, setter, lead


def same(compiled, build, **arguments):
    """compiled(**arguments) against the queryset build(**arguments) writes."""
    found = compiled(**arguments)
    expected = plain(build(**arguments))
    assert normal(found) == normal(expected)
    return found


def periods(ws):
    return [
        Period.of_days(workspace=ws, first_day=date(2026, 3, 1), last_day=date(2026, 3, 31)),
        Period.of_days(workspace=ws, first_day=date(2026, 3, 5), last_day=date(2026, 3, 6)),
        Period.of_days(workspace=ws, first_day=date(2025, 1, 1), last_day=date(2025, 1, 31)),
    ]


def each_shape(ws, dataset):
    closer, _, _ = dataset
    for period in periods(ws):
        for member in (None, closer.pk):
            yield {"workspace": ws.pk, "member": member, "start": period.start, "end": period.end}


def test_calls(ws, dataset):
    for params in each_shape(ws, dataset):
        for keys in (None, ("booked",), tuple(sorted(CALLS_COUNT_KEYS[:4]))):
            same(calls_totals, calls_totals.build, now=NOW, keys=keys, **params)


def test_outcomes(ws, dataset):
    answers = []
    for params in each_shape(ws, dataset):
        for part in ("calls", "past"):
            answers.append(same(outcomes_query, outcomes_query.build, part=part, **params))
    # The month's calls: the calls_dataset's and Lia's no-sale calls, their reason kept.
    assert ("scheduled", "showed", "no_sale", "price", 2) in answers[0]
    assert answers[1] == [("no_sale", "", 1)]  # the month's past-call form


def test_payments_and_commission(ws, dataset):
    closer, setter, _ = dataset
    totals = []
    for params in each_shape(ws, dataset):
        for part in ("cash", "refunds", "sales"):
            same(payments_part, payments_part.build, part=part, **params)
            # On PostgreSQL a row per member and slot, elsewhere per (closer, setter)
            # pair: the same totals per slot.
            found = commission_totals(part=part, **params)
            expected = plain(commission_totals.build(part=part, **params))
            assert slot_totals(found) == slot_totals(expected)
            totals.append(slot_totals(found))
    for member in (None, closer.pk):
        rows = same(commission_members, commission_members.build, workspace=ws.pk, member=member)
        assert rows and all(len(row) == 7 for row in rows)
    # March (the first shape): Lia's 500.00 paid, 100.00 refunded, 2,000.00 booked, each
    # counted for her closer and her setter.
    assert totals[:3] == [
        {("closer", closer.pk): 50000, ("setter", setter.pk): 50000},
        {("closer", closer.pk): 10000, ("setter", setter.pk): 10000},
        {("closer", closer.pk): 200000, ("setter", setter.pk): 200000},
    ]


def test_bucketed(ws, dataset):
    """The statements a series groups per local day, week or month, compiled, answer what
    their querysets answer (rows in any order), and their buckets add up to the period."""
    closer, _, _ = dataset
    march = periods(ws)[0]
    weeks = {}
    for interval in ("day", "week", "month"):
        buckets = _series_rows(ws, march, interval)[1]
        for member in (None, closer.pk):
            params = {"workspace": ws.pk, "member": member, "start": march.start, "end": march.end}
            cases = [
                (calls_totals, {"now": NOW, "keys": None}),
                (calls_totals, {"now": NOW, "keys": ("booked", "taken")}),
                (outcomes_query, {"part": "calls"}),
                (outcomes_query, {"part": "past"}),
                (payments_part, {"part": "cash"}),
                (payments_part, {"part": "refunds"}),
                (payments_part, {"part": "sales"}),
                (leads_query, {"part": "created"}),
            ]
            if member is None:
                for names in (("leads", "cash"), ("leads", "booked", "shows", "closes", "cash")):
                    cases.append((cohort_query, {"part": "totals", "names": names}))
            for compiled, arguments in cases:
                whole = compiled(**arguments, **params)
                arguments = {**arguments, **params, **buckets_params(buckets)}
                rows = compiled(**arguments)
                expected = plain(compiled.build(**arguments))
                assert sorted(map(repr, rows)) == sorted(map(repr, expected))
                if isinstance(whole, dict):
                    for key, total in whole.items():
                        assert sum(row[key] for row in rows) == total, (compiled, key)
                else:
                    assert sum(row[-1] for row in rows) == sum(row[-1] for row in whole)
                if interval == "week" and member is None and compiled is calls_totals:
                    weeks[arguments["keys"]] = {
                        bucket_start(buckets, row["_bucket"]): row for row in rows
                    }
    # March's live calls by local week (from Monday), booked and taken: the calls_dataset's
    # and Lia's showed call on the 4th; none the week of the 16th.
    assert {
        start: (row["booked"], row["taken"]) for start, row in weeks[("booked", "taken")].items()
    } == {date(2026, 3, 2): (5, 4), date(2026, 3, 9): (4, 2), date(2026, 3, 23): (1, 0)}


def test_eod(ws, dataset):
    closer, _, _ = dataset
    for period in periods(ws):
        for member in (None, closer.pk):
            for working in ((0, 1, 2, 3, 4), (0, 2), ()):
                for part in ("members", "submitted"):
                    same(
                        eod_query,
                        eod_query.build,
                        part=part,
                        workspace=ws.pk,
                        member=member,
                        first_day=period.first_day,
                        last_day=period.last_day,
                        last_due=date(2026, 3, 6),
                        working=working,
                    )


def test_leads(ws, dataset):
    for params in each_shape(ws, dataset):
        same(leads_query, leads_query.build, part="created", **params)
        for limit in (1, 100):
            same(leads_query, leads_query.build, part="page", limit=limit, **params)
        for part in ("tagged", "untagged"):
            same(attribution_query, attribution_query.build, part=part, **params)


def test_speed_to_lead(ws, dataset, rec):
    closer, setter, _ = dataset
    rec.lead("2026-03-20 11:00", setter=setter)
    contacted = rec.lead("2026-03-20 10:00", setter=setter)
    rec.touch(contacted, "2026-03-20 10:30", member=closer)
    for minutes in (30, 120, 60 * 24 * 30):
        for member in (None, setter.pk, closer.pk):
            for part in ("counts", "waiting"):
                same(
                    speed_query,
                    speed_query.build,
                    part=part,
                    workspace=ws.pk,
                    member=member,
                    since=NOW - timedelta(minutes=minutes),
                    now=NOW,
                )


def test_journey(ws, dataset, rec, make_workspace):
    closer, _, lead = dataset
    call = rec.call("2026-03-06 10:00", lead=lead, closer=closer)
    rec.outcome("follow_up", call=call, member=closer)
    # An outcome that names only its call (the model allows it): found by its call.
    Outcome.objects.filter(call=call).update(lead=None)
    kinds = [
        "_calls",
        "_calls",
        "_funnel_events",
        "_outcomes_by_call",
        "_outcomes_by_lead",
        "_outcomes_by_lead",
        "_payments",
        "_refunds",
        "_registrations",
        "_sales",
        "_touches",
    ]
    for workspace in (ws, make_workspace()):
        found = same(
            journey_query, journey_query.build, part="lead", workspace=workspace.pk, lead=lead.pk
        )
        assert bool(found) == (workspace == ws)
        found = same(
            journey_query, journey_query.build, part="records", workspace=workspace.pk, lead=lead.pk
        )
        assert sorted(KINDS[row[0]][0].__name__ for row in found) == (
            kinds if workspace == ws else []
        )


def test_funnel(ws, dataset, rec, make_workspace):
    _, setter, lead = dataset
    funnel = rec.funnel("webinar", stages=("registered", "attended", "booked"))
    rec.funnel_event(funnel, lead, "registered", "2026-03-05 10:00")
    rec.funnel_event(funnel, lead, "attended", "2026-03-05 11:00")
    rec.funnel_event(funnel, rec.lead("2026-03-05 09:00"), "registered", "2026-03-05 12:00")
    none = {"funnel": None, "member": None, "start": None, "end": None, "stages": 0}
    for workspace in (ws, make_workspace()):
        found = same(
            funnel_query, funnel_query.build, part="funnels", **{**none, "workspace": workspace.pk}
        )
        assert len(found) == (2 if workspace == ws else 0)
    for key in ("vsl", "webinar"):
        stages = same(
            funnel_query,
            funnel_query.build,
            part="stages",
            **{**none, "workspace": None, "funnel": ws.funnels.get(key=key).pk},
        )
        assert [stage.position for stage in stages] == list(range(len(stages)))
    answers = []
    for period in periods(ws):
        for member in (None, setter.pk):
            for stages in (1, 3, 5):
                answers.append(
                    same(
                        funnel_query,
                        funnel_query.build,
                        part="counts",
                        workspace=ws.pk,
                        funnel=funnel.pk,
                        member=member,
                        start=period.start,
                        end=period.end,
                        stages=stages,
                    )
                )
    assert answers[1] == {"s0": 2, "s1": 1, "s2": 0}  # the month's cohort, three stages
    assert answers[4] == {"s0": 1, "s1": 1, "s2": 0}  # the setter's lead


def test_webinar(ws, dataset, rec, make_workspace):
    _, setter, lead = dataset
    event = rec.webinar("2026-03-05 18:00", pitch="2026-03-05 18:40", name="Second")
    rec.registration(event, lead=lead, joined="2026-03-05 18:01", left="2026-03-05 18:50")
    rec.registration(event, joined="2026-03-05 18:05", left="2026-03-05 18:20")
    rec.registration(event)
    for workspace in (ws, make_workspace()):
        for event_id in (event.pk, ws.pk):
            found = same(
                webinar_query,
                webinar_query.build,
                part="event",
                workspace=workspace.pk,
                event=event_id,
                member=None,
                start=None,
                end=None,
            )
            assert bool(found) == (workspace == ws and event_id == event.pk)
        found = same(
            webinar_query,
            webinar_query.build,
            part="any_event",
            workspace=workspace.pk,
            event=None,
            member=None,
            start=None,
            end=None,
        )
        assert bool(found) == (workspace == ws)
    answers = []
    for period in periods(ws):
        for member in (None, setter.pk):
            for event_id in (None, event.pk):
                answers.append(
                    same(
                        webinar_query,
                        webinar_query.build,
                        part="counts",
                        workspace=ws.pk,
                        event=event_id,
                        member=member,
                        start=period.start,
                        end=period.end,
                    )
                )
    assert answers[0] == {
        "registrations": 4,
        "attended": 3,
        "stayed": 1,
        "unpitched": 1,
        "booked": answers[0]["booked"],
    }
    assert answers[3]["registrations"] == 1  # the setter's lead at the second event


@pytest.mark.postgres
def test_commission_totals_group_each_slot_on_postgresql(ws, dataset):
    # A row per member and slot (GROUPING SETS), not per (closer, setter) pair.
    closer, setter, _ = dataset
    params = next(each_shape(ws, dataset))
    assert sorted(commission_totals(part="cash", **params), key=str) == sorted(
        [(closer.pk, None, 50000), (None, setter.pk, 50000)], key=str
    )
    assert plain(commission_totals.build(part="cash", **params)) == [(closer.pk, setter.pk, 50000)]


def test_audit_events(ws, make_workspace):
    other = make_workspace()
    for workspace, action, when in (
        (ws, "a", "2026-03-02 10:00"),
        (ws, "b", "2026-03-04 09:00"),
        (ws, "c", "2026-03-09 00:00"),
        (other, "d", "2026-03-03 10:00"),
    ):
        columns = {
            "actor_kind": "member",
            "actor_id": "m",
            "actor_label": "Ann",
            "action": action,
            "target_type": "call",
            "target_id": "c",
            "reason": "",
        }
        AuditEvent.objects.create(
            workspace=workspace,
            at=at(when),
            json_text=event_json(at=at(when), **columns),
            **columns,
        )
    span = {"start": at("2026-03-01 00:00"), "end": at("2026-03-09 00:00")}
    for workspace, actions in ((ws, ["b", "a"]), (other, ["d"]), (make_workspace(), [])):
        texts = same(audit_query, audit_query.build, workspace=workspace.pk, **span)
        assert [json.loads(text)["action"] for text in texts] == actions
