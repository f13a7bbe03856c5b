"""The figure pages show exactly what the API answers, to the people they belong to."""

import json
import re
from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import pytest
from django.test import Client

from audit.models import AuditEvent
from dashboard.pages import _detail
from dashboard.periods import period_pick
from integrations.models import Connection
from tests.figures.conftest import Records
from workspaces.models import Lead

from .conftest import MARCH, check_against_api, shown_figures, signed_in

pytestmark = pytest.mark.django_db

HEADLINE = {
    "payments.cash_collected",
    "payments.revenue_booked",
    "calls.taken",
    "calls.show_rate",
    "calls.close_rate",
    "leads.created",
}


def overview_url(ws, **params):
    return f"/app/{ws.pk}/"


def test_every_number_on_the_overview_is_the_apis(
    team, figures_data, api, workspace_token, django_assert_max_num_queries
):
    ws = team["workspace"]
    client = signed_in(team["owner"])
    with django_assert_max_num_queries(45):
        response = client.get(f"/app/{ws.pk}/", MARCH)
    assert response.status_code == 200
    figures = shown_figures(response.content.decode())
    reader = api(workspace_token(ws))
    checked = check_against_api(figures, reader.get)
    shown = {figure["data-metric"] for figure in figures}
    assert shown >= HEADLINE
    assert {
        "calls.booked",
        "calls.closed",
        "funnel.stage_count",
        "attribution.leads",
        "commission.owed",
        "eod.compliance_rate",
        "speed_to_lead.waiting",
    } <= shown
    # 6 headline figures twice, 31 days x 5 series, funnel, attribution, commission, EOD...
    assert checked == len(figures) > 6 * 2 + 31 * 5
    by_path = {(f["data-api"], f["data-path"]): f for f in figures}
    cash = by_path[("/api/v1/payments?from=2026-03-01&to=2026-03-31", "data.cash_collected")]
    assert cash["data-value"] == "2000"
    assert cash["text"] == "$2,000.00"
    previous = by_path[("/api/v1/payments?from=2026-01-29&to=2026-02-28", "data.cash_collected")]
    assert previous["data-value"] == "1000"
    taken = by_path[("/api/v1/calls?from=2026-03-01&to=2026-03-31", "data.taken")]
    assert taken["text"] == "3"
    rate = by_path[("/api/v1/calls?from=2026-03-01&to=2026-03-31", "data.show_rate")]
    assert (rate["data-value"], rate["text"]) == ("0.75", "75.0%")
    day = by_path[
        (
            "/api/v1/series?metric=calls.taken&interval=day&from=2026-03-01&to=2026-03-31",
            "data.points.28.field",
        )
    ]
    assert day["data-value"] == "1"  # 29 March 23:30 in Berlin


def test_the_period_picker_and_the_previous_period(team, figures_data):
    ws = team["workspace"]
    html = signed_in(team["owner"]).get(f"/app/{ws.pk}/", MARCH).content.decode()
    assert 'data-from="2026-03-01" data-to="2026-03-31"' in html
    assert "compared with the 31 days before: 29 Jan 2026 to 28 Feb 2026" in html
    cash = re.search(r'id="tile-paymentscash_collected".*?</article>', html, re.S).group(0)
    assert "+$1,000.00 (+100.0%)" in cash
    html = signed_in(team["owner"]).get(f"/app/{ws.pk}/", {"range": "7"}).content.decode()
    assert "(7 days), compared with the 7 days before" in html
    assert '<option value="7" selected>' in html


def test_a_custom_range_that_cannot_be_read_says_why(team):
    ws = team["workspace"]
    html = (
        signed_in(team["owner"])
        .get(f"/app/{ws.pk}/", {"range": "custom", "from": "2026-03-05", "to": "2026-03-01"})
        .content.decode()
    )
    assert "from (2026-03-05) is after to (2026-03-01)." in html
    assert '<option value="30" selected>' in html


def test_a_null_figure_shows_a_dash_and_its_reason(team, figures_data):
    ws = team["workspace"]
    html = signed_in(team["owner"]).get(f"/app/{ws.pk}/", MARCH).content.decode()
    nulls = [f for f in shown_figures(html) if f["data-value"] == "null"]
    setter_owed = [f for f in nulls if f["data-metric"] == "commission.owed"]
    assert len(setter_owed) == 1
    assert setter_owed[0]["text"] == "— Setter Person has no commission rule."
    # April has no call taken: the close rate is a dash with its reason, never 0.
    html = (
        signed_in(team["owner"])
        .get(f"/app/{ws.pk}/", {"range": "custom", "from": "2026-04-01", "to": "2026-04-05"})
        .content.decode()
    )
    close = next(f for f in shown_figures(html) if f["data-metric"] == "calls.close_rate")
    assert close["data-value"] == "null"
    assert close["text"] == "— Calls taken: none in the period."


def test_the_awaiting_note_is_shown_beside_the_show_rate(team, figures_data):
    ws = team["workspace"]
    html = signed_in(team["owner"]).get(f"/app/{ws.pk}/", MARCH).content.decode()
    tile = re.search(r'id="tile-callsshow_rate".*?</article>', html, re.S).group(0)
    assert "1 call past its start has no attendance recorded; the show rate leaves it out." in tile


def test_attribution_sorts_by_a_column(team, figures_data):
    ws = team["workspace"]
    client = signed_in(team["owner"])

    def sources(params):
        html = client.get(f"/app/{ws.pk}/", {**MARCH, **params}).content.decode()
        return re.findall(
            r'<tr class="attribution-row"><th scope="row"><a href="[^"]+" class="source-leads">'
            r"(\w+) /",
            html,
        )

    assert sources({"sort": "leads", "dir": "desc"}) == ["google", "facebook"]
    assert sources({"sort": "leads", "dir": "asc"}) == ["facebook", "google"]
    assert sources({"sort": "source", "dir": "asc"}) == ["facebook", "google"]


def test_an_attribution_row_writes_its_combination_as_text(team, figures_data):
    """A UTM value is the client's text: written escaped, and its leads' list names it."""
    ws = team["workspace"]
    Records(ws).lead(
        "2026-03-10 10:00", utm_source="<b>ads</b>", utm_campaign='a&b "c"', utm_content="d'e"
    )
    html = signed_in(team["owner"]).get(f"/app/{ws.pk}/", MARCH).content.decode()
    row = re.search(
        r'<tr class="attribution-row"><th scope="row"><a href="([^"]+)" '
        r'class="source-leads">&lt;b&gt;ads(.*?)</a></th>',
        html,
    )
    assert row.group(2) == "&lt;/b&gt; / (none) / a&amp;b &quot;c&quot; / d&#x27;e"
    assert row.group(1).startswith(f"/app/{ws.pk}/leads/?")
    assert "utm_source=%3Cb%3Eads%3C%2Fb%3E&amp;utm_medium=%28none%29&amp;" in row.group(1)
    assert "<b>ads</b>" not in html


def test_waiting_leads_link_to_their_journey(team, figures_data):
    ws = team["workspace"]
    waiting = Lead.objects.get(name="Waiting Walter")
    html = signed_in(team["owner"]).get(f"/app/{ws.pk}/", MARCH).content.decode()
    assert f'<a href="/app/leads/{waiting.pk}" class="lead-link">Waiting Walter</a>' in html


@pytest.mark.parametrize("role", ["owner", "admin", "manager"])
def test_the_lead_page_tells_the_journey_in_order(team, figures_data, role):
    ws = team["workspace"]
    lead = Lead.objects.get(workspace=ws, name="Sally Sale")
    response = signed_in(team[role]).get(f"/app/leads/{lead.pk}")
    assert response.status_code == 200
    html = response.content.decode()
    types = re.findall(r'<li class="event" data-type="([^"]+)">', html)
    assert types == [
        "lead.created",
        "funnel.stage",
        "funnel.stage",
        "sale",
        "payment",
        "payment",
        "refund",
    ]
    assert 'Sale closed</strong> <span class="detail">$4,000.00 closed by Closer Person' in html
    assert "1 Mar 2026, 09:00</time> <strong>Lead created" in html  # in Berlin time
    assert 'Refund</strong> <span class="detail">$100.00' in html


def test_a_closer_sees_their_board_and_not_the_overview(team, figures_data):
    ws = team["workspace"]
    client = signed_in(team["closer"])
    response = client.get(f"/app/{ws.pk}/")
    assert response.status_code == 403
    assert "Your own figures are on your board" in response.content.decode()
    assert client.get("/")["Location"] == f"/app/{ws.pk}/board/"
    board = client.get(f"/app/{ws.pk}/board/", MARCH)
    assert board.status_code == 200
    assert 'id="nav-overview"' not in board.content.decode()
    lead = Lead.objects.filter(workspace=ws).first()
    assert client.get(f"/app/leads/{lead.pk}").status_code == 404


@pytest.mark.parametrize("role", ["owner", "closer", "setter"])
def test_the_board_is_the_members_own_api_board(team, figures_data, role, api, session_token):
    ws = team["workspace"]
    member = team[role]
    html = signed_in(member).get(f"/app/{ws.pk}/board/", MARCH).content.decode()
    # The figures that name an address; the goals and the rank name none for a closer or
    # setter, whose session does not read those operations (tests/dashboard/test_goals_pages).
    figures = [figure for figure in shown_figures(html) if figure["data-api"]]
    reader = api(session_token(member))
    checked = check_against_api(figures, reader.get)
    assert checked == len(figures) == 10 + 5 + 1 + 3
    assert all(f["data-api"] == "/api/v1/me/board?from=2026-03-01&to=2026-03-31" for f in figures)


def test_outsiders_get_404(team, make_workspace, make_member, figures_data):
    ws = team["workspace"]
    stranger = make_member(make_workspace(), "owner")
    client = signed_in(stranger)
    lead = Lead.objects.filter(workspace=ws).first()
    before = AuditEvent.objects.count()
    for url in (f"/app/{ws.pk}/", f"/app/{ws.pk}/board/", f"/app/leads/{lead.pk}"):
        assert client.get(url).status_code == 404, url
    assert AuditEvent.objects.count() == before


def test_pages_need_sign_in(team):
    ws = team["workspace"]
    response = Client_anonymous().get(f"/app/{ws.pk}/")
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=/app/{ws.pk}/"


def Client_anonymous():  # reads as the client it makes
    return Client()


def test_the_agency_console_shows_each_workspaces_last_30_days(
    make_agency, make_workspace, team, figures_data, api, workspace_token, make_user_for_agency
):
    agency = make_agency()
    ws = team["workspace"]
    ws.agency = agency
    ws.save(update_fields=["agency"])
    second = make_workspace(agency=agency, name="Second")
    client = make_user_for_agency(agency)
    html = client.get(f"/agency/{agency.pk}/").content.decode()
    figures = shown_figures(html)
    assert len(figures) == 12
    tokens = {w.pk: api(workspace_token(w)) for w in (ws, second)}
    rows = re.findall(r'<tr data-workspace-id="([^"]+)">(.*?)</tr>', html, re.S)
    assert [workspace_id for workspace_id, _ in rows] == sorted(
        [str(ws.pk), str(second.pk)],
        key=lambda pk: "Northwind Sales" if pk == str(ws.pk) else "Second",
    )
    for workspace_id, row in rows:
        reader = tokens[next(pk for pk in tokens if str(pk) == workspace_id)]
        assert check_against_api(shown_figures(row), reader.get) == 6
    leads = [f for f in shown_figures(rows[0][1]) if f["data-metric"] == "leads.created"]
    assert leads[0]["data-value"] == "1"  # the waiting lead, created half an hour ago


@pytest.fixture
def make_user_for_agency(django_user_model):
    def make(agency):
        user = django_user_model.objects.create_user(username="ops", email="ops@example.test")
        agency.users.add(user)
        client = Client()
        client.force_login(user)
        return client

    return make


def test_the_board_shows_a_note_beside_its_figure(team, figures_data):
    ws = team["workspace"]
    figures_data.call("2026-03-11 12:00", closer=team["closer"])  # past, no attendance
    html = signed_in(team["closer"]).get(f"/app/{ws.pk}/board/", MARCH).content.decode()
    tile = re.search(r'data-metric="calls.show_rate".*?</article>', html, re.S).group(0)
    assert "1 call past its start has no attendance recorded; the show rate leaves it out." in tile
    header = html[: html.index('id="board-calls"')]
    assert "awaiting-outcome" not in header


@pytest.mark.parametrize(
    ("role", "links"),
    [
        (
            "owner",
            [
                "nav-overview",
                "nav-board",
                "nav-goals",
                "nav-integrations",
                "nav-settings",
                "nav-places",
            ],
        ),
        (
            "admin",
            [
                "nav-overview",
                "nav-board",
                "nav-goals",
                "nav-integrations",
                "nav-settings",
                "nav-places",
            ],
        ),
        ("manager", ["nav-overview", "nav-board", "nav-goals", "nav-integrations", "nav-places"]),
        ("closer", ["nav-board", "nav-places"]),
    ],
)
def test_the_navigation_offers_each_role_the_pages_it_may_use(team, role, links):
    html = signed_in(team[role]).get(f"/app/{team['workspace'].pk}/board/").content.decode()
    assert re.findall(r'id="(nav-[a-z]+)"', html) == links
    # The person's places, the same on every page: here their one workspace.
    workspace = team["workspace"]
    assert re.findall(r'data-place="([^"]+)">([^<]+)<', html) == [
        (f"workspace-{workspace.pk}", workspace.name)
    ]


CLOSER = {"id": "m1", "name": "Casey Closer"}


@pytest.mark.parametrize(
    ("event", "detail"),
    [
        ({"type": "lead.created"}, ""),
        (
            {"type": "touch", "channel": "sms", "member": CLOSER, "counts_as_first_contact": True},
            "by sms (Casey Closer)",
        ),
        (
            {
                "type": "touch",
                "channel": "email",
                "member": None,
                "counts_as_first_contact": False,
                "not_first_contact_reason": "sent without a member (automated)",
            },
            "by email. Not a first contact: sent without a member (automated).",
        ),
        (
            {"type": "webinar.joined", "event": {"id": "e1", "name": "Spring launch"}},
            "Spring launch",
        ),
        (
            {
                "type": "call.rescheduled",
                "call": {"scheduled_for": "2026-03-02T10:00:00Z", "closer": CLOSER},
            },
            "for 2 Mar 2026, 10:00 with Casey Closer",
        ),
        (
            {
                "type": "call.no_show",
                "call": {"scheduled_for": "2026-03-02T10:00:00Z", "closer": None},
            },
            "",
        ),
        (
            {"type": "outcome", "result": "follow_up", "reason": "needs spouse", "member": CLOSER},
            "Follow-up (needs spouse) by Casey Closer",
        ),
        ({"type": "outcome", "result": "no_sale", "reason": "", "member": None}, "No sale"),
        (
            {"type": "sale", "contract_value": 12000, "currency": "EUR", "closer": None},
            "€12,000.00",
        ),
        (
            {"type": "payment", "amount": 1500, "currency": "USD", "status": "failed"},
            "$1,500.00 (failed)",
        ),
        (
            {"type": "payment", "amount": 1500, "currency": "USD", "status": "succeeded"},
            "$1,500.00",
        ),
        ({"type": "chargeback", "amount": 250, "currency": "USD"}, "$250.00"),
        ({"type": "funnel.stage", "funnel": "vsl", "stage": "booked"}, "vsl: Booked a call"),
    ],
)
def test_each_journey_event_is_told_in_words(event, detail):
    assert _detail(event) == detail


@pytest.mark.parametrize("page", ["", "board/"])
def test_a_custom_range_a_page_cannot_show_falls_back_and_says_why(team, page):
    ws = team["workspace"]
    client = signed_in(team["owner"])
    centuries = client.get(
        f"/app/{ws.pk}/{page}", {"range": "custom", "from": "1726-01-01", "to": "2026-11-01"}
    )
    assert centuries.status_code == 200
    html = centuries.content.decode()
    assert "A page shows at most 1000 months of figures: choose a period shorter than" in html
    assert '<option value="30" selected>' in html
    first_days = client.get(
        f"/app/{ws.pk}/{page}", {"range": "custom", "from": "0001-01-01", "to": "0001-01-05"}
    )
    assert first_days.status_code == 200
    assert "from is outside the dates this service can read." in first_days.content.decode()


@pytest.mark.parametrize(
    ("dates", "interval", "points"),
    [
        (("2026-03-01", "2026-04-30"), "day", 61),
        (("2026-01-01", "2026-06-30"), "week", 27),
        (("1990-01-01", "2026-06-30"), "month", 438),
    ],
)
def test_the_charts_group_a_long_period_by_week_or_month(
    team, figures_data, dates, interval, points
):
    ws = team["workspace"]
    html = (
        signed_in(team["owner"])
        .get(f"/app/{ws.pk}/", {"range": "custom", "from": dates[0], "to": dates[1]})
        .content.decode()
    )
    assert f"Cash collected and revenue booked, per {interval}</h2>" in html
    data = re.search(r'<script id="cash-chart-data" type="application/json">(.*?)</script>', html)
    assert len(json.loads(data.group(1))["labels"]) == points


@pytest.mark.parametrize("page", ["", "board/"])
def test_the_first_days_of_the_calendar_in_utc_say_why_they_cannot_be_compared(
    make_workspace, make_member, page
):
    ws = make_workspace(timezone="UTC")
    owner = make_member(ws, "owner")
    response = signed_in(owner).get(
        f"/app/{ws.pk}/{page}", {"range": "custom", "from": "0001-01-01", "to": "0001-01-05"}
    )
    assert response.status_code == 200
    assert "from is too early to compare" in response.content.decode()


def test_attribution_sort_links_keep_the_place_and_show_the_direction(team, figures_data):
    ws = team["workspace"]
    html = signed_in(team["owner"]).get(f"/app/{ws.pk}/", {**MARCH, "sort": "cash", "dir": "asc"})
    html = html.content.decode()
    link = re.search(r'<a href="([^"]+)" id="sort-cash">Cash collected <span', html).group(1)
    assert (
        link
        == "?range=custom&amp;from=2026-03-01&amp;to=2026-03-31&amp;sort=cash&amp;dir=desc#attribution"
    )
    assert '<th scope="col" aria-sort="ascending">' in html
    assert '▲<span class="visually-hidden"> (lowest first)</span>' in html


@pytest.mark.parametrize(
    ("today", "period", "previous"),
    [
        # This month to today against the same days of last month.
        ("2026-11-24", ("2026-11-01", "2026-11-24"), ("2026-10-01", "2026-10-24")),
        # A day of the month that last month has not: to the end of last month.
        ("2026-03-31", ("2026-03-01", "2026-03-31"), ("2026-02-01", "2026-02-28")),
    ],
)
def test_this_month_is_compared_with_the_same_days_of_last_month(team, today, period, previous):
    now = datetime.combine(date.fromisoformat(today), time(12), ZoneInfo("Europe/Berlin"))
    picked = period_pick(workspace=team["workspace"], params={"range": "this-month"}, now=now)
    assert (picked.period.first_day.isoformat(), picked.period.last_day.isoformat()) == period
    assert (
        picked.previous.first_day.isoformat(),
        picked.previous.last_day.isoformat(),
    ) == previous
    assert picked.compared_with == "the same days of last month"
    last = period_pick(workspace=team["workspace"], params={"range": "last-month"}, now=now)
    assert last.previous.last_day.isoformat() < last.period.first_day.isoformat()
    assert last.previous.first_day.day == 1


def test_money_is_written_as_the_workspaces_locale_writes_it(team, figures_data):
    ws = team["workspace"]
    ws.locale = "de"
    ws.save(update_fields=["locale"])
    html = signed_in(team["owner"]).get(f"/app/{ws.pk}/", MARCH).content.decode()
    by_metric = {}
    for figure in shown_figures(html):
        by_metric.setdefault((figure["data-metric"], figure["data-api"]), figure["text"])
    cash = by_metric[("payments.cash_collected", "/api/v1/payments?from=2026-03-01&to=2026-03-31")]
    assert cash == "2.000,00\xa0$"
    rate = by_metric[("calls.show_rate", "/api/v1/calls?from=2026-03-01&to=2026-03-31")]
    assert rate == "75,0\xa0%"
    assert "Dates and times are in Europe/Berlin time" in html


def test_a_new_workspace_sees_a_checklist_until_records_arrive(team):
    ws = team["workspace"]
    client = signed_in(team["owner"])
    html = client.get(f"/app/{ws.pk}/").content.decode()
    assert 'id="first-run"' in html
    # Five members already (the team fixture): the team is invited; nothing is connected.
    assert '<li id="step-invite" class="done">' in html
    assert '<li id="step-connect" class="todo">' in html
    assert f'href="/settings/{ws.pk}/integrations/" id="checklist-integrations"' in html
    assert f'href="/settings/{ws.pk}/import/" id="checklist-import"' in html
    assert 'id="cash-chart"' not in html

    Records(ws).lead("2026-03-01 09:00", tz="Europe/Berlin")
    html = client.get(f"/app/{ws.pk}/").content.decode()
    assert 'id="first-run"' not in html
    assert 'id="cash-chart"' in html


def test_the_checklist_ticks_a_connected_provider(make_workspace, make_member):
    ws = make_workspace(name="Fresh")
    owner = make_member(ws, "owner")
    html = signed_in(owner).get(f"/app/{ws.pk}/").content.decode()
    assert '<li id="step-connect" class="todo">' in html
    assert '<li id="step-invite" class="todo">' in html
    Connection.objects.create(workspace=ws, provider="stripe", credentials_encrypted=b"x")
    html = signed_in(owner).get(f"/app/{ws.pk}/").content.decode()
    assert '<li id="step-connect" class="done">' in html


def test_the_closed_figures_say_what_each_counts(team, figures_data):
    ws = team["workspace"]
    html = signed_in(team["owner"]).get(f"/app/{ws.pk}/", MARCH).content.decode()
    assert (
        '<p class="definition" id="definition-calls-closed"><strong>Calls closed</strong>: '
        "Calls scheduled in the period, taken, whose outcome is closed or deposit.</p>"
    ) in html
    assert (
        "<strong>Closes</strong>: Leads created in the period that have a sale, whenever it "
        "closed.</p>"
    ) in html
    assert html.count("Why the closed numbers differ:") == 1
    board = signed_in(team["closer"]).get(f"/app/{ws.pk}/board/", MARCH).content.decode()
    assert (
        '<p class="definition">Sales closed in the period, whenever their lead was created.</p>'
    ) in board


def test_the_picker_applies_on_change_and_still_works_without_a_script(team, figures_data):
    ws = team["workspace"]
    html = signed_in(team["owner"]).get(f"/app/{ws.pk}/", MARCH).content.decode()
    assert '<form method="get" action="/app/' in html
    assert 'id="period-picker" data-apply="change">' in html
    assert (
        '<noscript><button class="btn" type="submit" id="apply-period">Show</button></noscript>'
        in html
    )
    assert "/static/js/figures.js" in html


def test_notes_are_said_in_sentences_not_codes(team, figures_data):
    ws = team["workspace"]
    html = signed_in(team["owner"]).get(f"/app/{ws.pk}/").content.decode()  # to today
    assert (
        '<li class="note" data-code="period-in-future" data-subject="period">Part of this '
        "period is still to come, so its figures can still change.</li>"
    ) in html
    text = re.sub(r"<[^>]+>", " ", html)
    assert "period-in-future" not in text
    assert not re.search(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}", text)
    march = signed_in(team["owner"]).get(f"/app/{ws.pk}/", MARCH).content.decode()
    assert "awaiting-outcome" not in re.sub(r"<[^>]+>", " ", march)
