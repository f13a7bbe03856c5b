"""The demo's owner sees the overview with data, changes the period and reads the same
numbers as the API; a closer sees their board and not the overview; nothing is fetched
from another host."""

import json
from urllib.parse import urlencode, urlsplit

import pytest

from demo.services import DEMO_PASSWORD, demo_create
from tests.figures.conftest import Records

from .conftest import DESKTOP, PHONE, BrowserErrors, call_api, shot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo():
    data, _ = demo_create()
    return data["workspaces"][0]


def member(demo, role):
    return next(entry for entry in demo["members"] if entry["role"] == role)


def shown(page) -> list[dict]:
    return page.eval_on_selector_all(
        "[data-metric][data-value]",
        """elements => elements.map(e => ({
            metric: e.dataset.metric, api: e.dataset.api, path: e.dataset.path,
            value: e.dataset.value, text: e.textContent.trim(),
            visible: !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length)}))""",
    )


def resolve(body, path):
    for part in path.split("."):
        body = body[int(part)] if isinstance(body, list) else body[part]
    return body


def assert_equal_to_api(live_server, figures, token) -> int:
    answers = {}
    for figure in figures:
        if figure["api"] not in answers:
            status, body = call_api(live_server, figure["api"], token)
            assert status == 200, (figure["api"], body)
            answers[figure["api"]] = body
        field = resolve(answers[figure["api"]], figure["path"])
        assert field["metric"] == figure["metric"]
        assert json.loads(figure["value"]) == field["value"], figure
    return len(figures)


def test_the_owner_reads_the_overview_and_a_closer_their_board(page, live_server, demo):
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    owner, closer = member(demo, "owner"), member(demo, "closer")
    read_token = demo["tokens"]["read"]

    page.goto("/accounts/login/?next=/")
    sign_in(page, owner["email"], DEMO_PASSWORD)
    overview_path = f"/app/{demo['id']}/"
    assert urlsplit(page.url).path == overview_path
    assert page.text_content("h1").strip() == "Northwind Coaching"
    # The charts are drawn (uPlot's canvas) and the figures hold data.
    page.wait_for_selector("#cash-chart canvas")
    page.wait_for_selector("#calls-chart canvas")
    page.wait_for_selector("#funnel-chart canvas")
    figures = shown(page)
    headline = [
        f
        for f in figures
        if f["path"] and f["api"].startswith(("/api/v1/calls", "/api/v1/payments", "/api/v1/leads"))
    ]
    assert len(headline) == 16
    assert all(f["visible"] for f in headline)
    leads_created = next(f for f in headline if f["metric"] == "leads.created")
    assert int(leads_created["value"]) > 0
    assert assert_equal_to_api(live_server, figures, read_token) > 200
    shot(page, "overview.png")

    # Another period: the last 7 days, then the numbers are those of the API again.
    # Another period: the last 7 days, applied as soon as it is chosen.
    with page.expect_navigation():
        page.select_option("#range", "7")
    page.wait_for_selector("#cash-chart canvas")
    shown_from = page.get_attribute("#period-shown", "data-from")
    shown_to = page.get_attribute("#period-shown", "data-to")
    assert "range=7" in page.url
    figures = shown(page)
    cash = next(f for f in figures if f["metric"] == "payments.cash_collected")
    assert cash["api"] == "/api/v1/payments?" + urlencode({"from": shown_from, "to": shown_to})
    assert assert_equal_to_api(live_server, figures, read_token) > 50

    # A period with no call taken: the close rate is a dash and its reason, never 0.
    # A custom range: its dates show once it is picked.
    assert not page.is_visible("#from")
    page.select_option("#range", "custom")
    with page.expect_navigation():
        page.fill("#from", "2020-01-01")
    with page.expect_navigation():
        page.fill("#to", "2020-01-07")
    assert page.input_value("#range") == "custom"
    assert "range=custom&from=2020-01-01&to=2020-01-07" in page.url
    close = page.locator("#tile-callsclose_rate .big .figure")
    assert close.get_attribute("data-value") == "null"
    assert close.text_content().strip() == "— Calls taken: none in the period."
    assert assert_equal_to_api(live_server, shown(page), read_token) > 0
    shot(page, "overview-null-figure.png")

    # A lead's journey from the waiting list, or from the API's open_url.
    _status, body = call_api(live_server, "/api/v1/leads?limit=1", read_token)
    lead_id = body["data"]["leads"][0]["id"]
    page.goto(f"/app/leads/{lead_id}")
    assert page.locator("#journey li").count() >= 1
    assert page.get_attribute("#journey li:first-child", "data-type") == "lead.created"
    shot(page, "lead-journey.png")

    # At phone width the overview still fits its width.
    page.set_viewport_size(PHONE)
    page.goto(overview_path)
    page.wait_for_selector("#cash-chart canvas")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    shot(page, "overview-phone.png")
    page.set_viewport_size(DESKTOP)

    # A closer: the board, not the overview.
    page.click("header button.link")
    page.goto("/accounts/login/?next=/")
    sign_in(page, closer["email"], DEMO_PASSWORD)
    board_path = f"/app/{demo['id']}/board/"
    assert urlsplit(page.url).path == board_path
    assert page.locator("#nav-overview").count() == 0
    # The board's own figures, each the member's API board's; the goals and the rank name no
    # address a closer's session reads (tests/browser/test_goals_page.py reads them).
    board = [figure for figure in shown(page) if figure["api"]]
    assert len(board) == 19
    assert assert_equal_to_api(live_server, board, closer["session_token"]) == 19
    shot(page, "board-closer.png")
    page.set_viewport_size(PHONE)
    page.reload()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "board-closer-phone.png")
    response = page.goto(overview_path)
    assert response.status == 403
    assert "Your own figures are on your board" in page.text_content("#reason")

    hosts = {urlsplit(url).netloc for url in requests if not url.startswith("data:")}
    assert hosts == {urlsplit(live_server.url).netloc}


# A week of a workspace west of UTC and one east of it, read in a browser whose own zone is
# neither: the peak of 20 Nov is paid in the workspace's evening (New York: 02:00 UTC the
# next day) or morning (Sydney: 21:00 UTC the day before).
PEAK_PAID = {"America/New_York": "2026-11-20 21:00", "Australia/Sydney": "2026-11-20 08:00"}


@pytest.mark.parametrize(
    ("workspace_zone", "browser_zone"),
    [
        ("America/New_York", "Australia/Sydney"),
        ("America/New_York", "UTC"),
        ("Australia/Sydney", "America/New_York"),
        ("Australia/Sydney", "UTC"),
    ],
)
def test_the_tooltip_the_table_and_the_api_name_the_same_day(
    chromium,
    live_server,
    make_workspace,
    make_member,
    make_user,
    workspace_token,
    workspace_zone,
    browser_zone,
):
    workspace = make_workspace(name="Dayside", timezone=workspace_zone)
    owner = make_member(workspace, "owner", name="Olive Owner", user=False)
    owner.user = make_user("olive@dayside.test")
    owner.email = "olive@dayside.test"
    owner.save()
    records = Records(workspace)
    sale = records.sale(900_000, "2026-11-18 10:00", tz=workspace_zone)
    records.payment(sale, 10_000, "2026-11-18 12:00", tz=workspace_zone)
    records.payment(sale, 250_000, PEAK_PAID[workspace_zone], tz=workspace_zone)
    records.payment(sale, 20_000, "2026-11-22 12:00", tz=workspace_zone)
    token = workspace_token(workspace)

    context = chromium.new_context(
        viewport=DESKTOP, base_url=live_server.url, timezone_id=browser_zone
    )
    context.set_default_timeout(15_000)
    errors = BrowserErrors(context)
    page = context.new_page()
    page.goto("/accounts/login/?next=/")
    sign_in(page, owner.email)
    assert page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone") == browser_zone
    page.goto(f"/app/{workspace.pk}/?range=custom&from=2026-11-17&to=2026-11-23")
    page.wait_for_selector("#cash-chart canvas")

    # The pointer over the fourth of the seven days, as a person moves it.
    over = page.locator("#cash-chart .u-over")
    over.scroll_into_view_if_needed()
    box = over.bounding_box()
    over.hover(position={"x": 5, "y": 5})
    over.hover(position={"x": box["width"] * 3 / 6, "y": box["height"] * 0.5})
    tip = page.locator("#cash-chart-tip")
    tip.wait_for(state="visible")
    lines = tip.evaluate("e => Array.from(e.children).map(c => c.textContent)")
    assert lines[:2] == ["20 Nov 2026", "Cash collected: $2,500.00"]

    # The table under the chart: the day of the peak, and its figure.
    rows = page.eval_on_selector_all(
        "#cash-chart-table tbody tr",
        """rows => rows.map(r => {
            const cash = r.querySelector('[data-metric="payments.cash_collected"]');
            return {day: r.querySelector("th").textContent.trim(), text: cash.textContent.trim(),
                    api: cash.dataset.api, path: cash.dataset.path};
        })""",
    )
    assert [row["day"] for row in rows] == [
        "17 Nov 2026",
        "18 Nov 2026",
        "19 Nov 2026",
        "20 Nov 2026",
        "21 Nov 2026",
        "22 Nov 2026",
        "23 Nov 2026",
    ]
    peak = next(row for row in rows if row["text"] == "$2,500.00")
    assert peak["day"] == "20 Nov 2026"

    # /api/v1/series, at the address and place the page gives for that figure.
    status, body = call_api(live_server, peak["api"], token)
    assert status == 200, body
    assert urlsplit(peak["api"]).path == "/api/v1/series"
    point = resolve(body, peak["path"].removesuffix(".field"))
    assert (point["from"], point["to"], point["field"]["value"]) == (
        "2026-11-20",
        "2026-11-20",
        2500.0,
    )
    context.close()
    assert errors.messages == [], "\n".join(errors.messages)
