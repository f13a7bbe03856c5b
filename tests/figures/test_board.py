"""The member's board and the key figures, reused by the agent API."""

from datetime import date

import pytest

from figures.envelope import envelope_build
from figures.period import Period
from figures.selectors import key_figures, member_board
from tests.conftest import aware

pytestmark = pytest.mark.django_db

NOW = aware("2026-11-01 12:00")


@pytest.fixture
def team(ws, rec, make_member):
    a = make_member(ws, "closer", name="Ada", email="ada@example.test")
    b = make_member(ws, "setter", name="Bo", email="bo@example.test")
    c = make_member(ws, "closer", name="Cy", email="cy@example.test")
    rec.rule(a, basis="cash_collected", slot="closer", rate="0.1")
    l1 = rec.lead("2026-03-01 09:00")
    l2 = rec.lead("2026-03-01 10:00")
    call1 = rec.call("2026-03-02 10:00", lead=l1, closer=a, setter=b, attendance="showed")
    rec.outcome("closed", call=call1)
    rec.call("2026-03-03 10:00", lead=l1, closer=a, attendance="no_show")
    call3 = rec.call("2026-03-04 10:00", lead=l2, closer=c, setter=b, attendance="showed")
    rec.outcome("no_sale", call=call3)
    s1 = rec.sale(300000, "2026-03-02 11:00", lead=l1, closer=a, setter=b)
    rec.payment(s1, 100000, "2026-03-02 11:00")
    rec.payment(s1, 50000, "2026-04-01 11:00")
    s2 = rec.sale(200000, "2026-03-04 11:00", lead=l2, closer=c, setter=b)
    rec.payment(s2, 200000, "2026-03-04 11:00")
    rec.eod(a, "2026-03-02")
    rec.eod(a, "2026-03-07")  # a Saturday: filed, not due
    return a, b, c


def march(ws):
    return Period.of_days(workspace=ws, first_day=date(2026, 3, 1), last_day=date(2026, 3, 31))


def flat(data):
    out = {}
    for group, members in data.items():
        if group == "member":
            continue
        for key, field in members.items():
            out[f"{group}.{key}"] = field.value
    return out


def test_board_of_a_closer_with_a_rule(ws, team, django_assert_max_num_queries):
    a, _, _ = team
    with django_assert_max_num_queries(11):
        board = member_board(workspace=ws, member=a, period=march(ws), now=NOW).data
    assert board["member"] == {
        "id": str(a.pk),
        "name": "Ada",
        "email": "ada@example.test",
        "role": "closer",
    }
    figures = flat(board)
    assert {k: v for k, v in figures.items() if k.startswith("calls.")} == {
        "calls.booked": 2,
        "calls.cancelled": 0,
        "calls.taken": 1,
        "calls.no_show": 1,
        "calls.awaiting_outcome": 0,
        "calls.upcoming": 0,
        "calls.closed": 1,
        "calls.show_rate": 0.5,
        "calls.close_rate": 1.0,
        "calls.offer_rate": None,
    }
    assert figures["payments.sales"] == 1
    assert figures["payments.revenue_booked"] == 3000
    assert figures["payments.cash_collected"] == 1000
    assert figures["payments.refunded"] == 0
    assert figures["payments.net_cash"] == 1000
    assert figures["commission.owed"] == 100
    assert figures["eod.expected"] == 22
    assert figures["eod.submitted"] == 2
    assert figures["eod.compliance_rate"] == 0.0455


def test_board_of_a_setter_without_a_rule(ws, team):
    _, b, _ = team
    board = member_board(workspace=ws, member=b, period=march(ws), now=NOW).data
    figures = flat(board)
    assert figures["calls.booked"] == 2
    assert figures["calls.taken"] == 2
    assert figures["calls.closed"] == 1
    assert figures["payments.sales"] == 2
    assert figures["payments.revenue_booked"] == 5000
    assert figures["payments.cash_collected"] == 3000
    assert figures["eod.submitted"] == 0
    assert figures["eod.compliance_rate"] == 0.0
    owed = board["commission"]["owed"].as_dict()
    assert owed["value"] is None
    assert owed["currency"] == "USD"
    assert owed["unavailable"] == {"code": "not-computed", "reason": "Bo has no commission rule."}

    body = envelope_build(workspace=ws, period=march(ws), data=board, now=NOW)
    assert body["period"] == {"from": "2026-03-01", "to": "2026-03-31"}
    assert {
        "subject": "commission.owed",
        "code": "figure-unavailable",
        "reason": "Bo has no commission rule.",
    } in body["notes"]


def test_key_figures_by_days_and_by_instants(ws, team, django_assert_max_num_queries):
    with django_assert_max_num_queries(8):
        figures = key_figures(
            workspace=ws, start=date(2026, 3, 1), end=date(2026, 3, 31), now=NOW
        ).data
    assert {key: field.value for key, field in figures.items()} == {
        "calls.booked": 3,
        "calls.show_rate": 0.6667,
        "calls.close_rate": 0.5,
        "payments.cash_collected": 3000,
        "payments.revenue_booked": 5000,
        "leads.created": 2,
    }
    assert figures["payments.cash_collected"].raw == 300000
    assert figures["calls.show_rate"].raw == (2, 3)

    figures = key_figures(
        workspace=ws, start=aware("2026-03-03 00:00"), end=aware("2026-03-05 00:00"), now=NOW
    ).data
    assert {key: field.value for key, field in figures.items()} == {
        "calls.booked": 2,
        "calls.show_rate": 0.5,
        "calls.close_rate": 0.0,
        "payments.cash_collected": 2000,
        "payments.revenue_booked": 2000,
        "leads.created": 0,
    }
