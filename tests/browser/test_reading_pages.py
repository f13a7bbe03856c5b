"""The pages read like a product: one time zone and one format for dates and times, money
as the workspace's locale writes it, chart tooltips, figures that open their records, a
checklist for a new workspace, and no page wider than a phone."""

import re
from datetime import UTC, datetime
from urllib.parse import urlsplit

import pytest

from audit.services import Actor
from demo.services import DEMO_PASSWORD, demo_create
from integrations import services
from integrations.models import Connection
from tests.figures.conftest import Records
from tests.integrations.calendly import conftest as calendly

from .conftest import DESKTOP, PHONE, BrowserErrors, shot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# 2026-10-26T14:05, 2026-10-26 14:05: an instant as a program writes it.
INSTANT = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")


@pytest.fixture
def demo():
    data, extra = demo_create()
    return {**data, "agency_users": extra["agency_users"]}


def person(workspace, role):
    return next(entry for entry in workspace["members"] if entry["role"] == role)


def page_text(page) -> str:
    return page.evaluate("document.body.innerText")


def assert_reads_like_a_product(page, zone: str, width: int) -> None:
    text = page_text(page)
    assert not INSTANT.search(text), (page.url, INSTANT.search(text).group(0))
    assert "+00:00" not in text, page.url
    assert "Times are UTC" not in text, page.url
    assert text.count(f"Dates and times are in {zone} time") == 1, page.url
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= width, (page.url, scroll_width)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_page_writes_times_one_way_and_fits_the_screen(chromium, live_server, demo, viewport):
    context = chromium.new_context(viewport=viewport, base_url=live_server.url)
    context.set_default_timeout(15_000)
    errors = BrowserErrors(context)
    # Any console error at all, not only the policy's refusals.
    console_errors = []
    context.on(
        "console",
        lambda message: message.type == "error" and console_errors.append(message.text),
    )
    page = context.new_page()
    northwind = demo["workspaces"][0]
    ws = northwind["id"]
    page.goto("/accounts/login/?next=/")
    sign_in(page, person(northwind, "owner")["email"], DEMO_PASSWORD)
    zone = "America/New_York"
    pages = [
        f"/app/{ws}/",
        f"/app/{ws}/board/",
        f"/app/{ws}/calls/?figure=taken",
        f"/app/{ws}/leads/?waiting=1",
        f"/settings/{ws}/integrations/",
        f"/settings/{ws}/members/",
        f"/settings/{ws}/workspace/",
        f"/settings/{ws}/tokens/",
        f"/settings/{ws}/webinars/",
        f"/settings/{ws}/webhooks/",
        f"/app/{ws}/work/",
    ]
    for path in pages:
        page.goto(path)
        assert_reads_like_a_product(page, zone, viewport["width"])
    # A lead's journey, opened from the list of leads never contacted.
    page.goto(f"/app/{ws}/leads/?waiting=1")
    with page.expect_navigation():
        page.click("#records a.lead-link >> nth=0")
    assert urlsplit(page.url).path.startswith("/app/leads/")
    assert_reads_like_a_product(page, zone, viewport["width"])
    if viewport is PHONE:
        shot(page, "lead-journey-phone.png")

    # The agency console: the agency's pages are in UTC, named once.
    if viewport is PHONE:
        page.click("#menu-button")
    with page.expect_navigation():
        page.click("#sign-out")
    page.goto("/accounts/login/?next=/")
    sign_in(page, demo["agency_users"][0], DEMO_PASSWORD)
    page.goto(f"/agency/{demo['agency']['id']}/")
    assert_reads_like_a_product(page, "UTC", viewport["width"])
    if viewport is PHONE:
        shot(page, "agency-console-phone.png")
    context.close()
    assert errors.messages == [], "\n".join(errors.messages)
    assert console_errors == []


def test_money_is_written_as_each_workspace_writes_it(page, demo):
    northwind, lindenhof = demo["workspaces"][0], demo["workspaces"][1]
    page.goto("/accounts/login/?next=/")
    sign_in(page, person(northwind, "owner")["email"], DEMO_PASSWORD)
    cash = page.locator("#tile-paymentscash_collected .big .figure")
    value, text = float(cash.get_attribute("data-value")), cash.text_content().strip()
    # en, USD: $118,624.98.
    assert re.fullmatch(r"\$\d{1,3}(,\d{3})*\.\d{2}", text), text
    assert float(text.lstrip("$").replace(",", "")) == pytest.approx(value)

    page.click("#sign-out")
    page.goto("/accounts/login/?next=/")
    sign_in(page, person(lindenhof, "owner")["email"], DEMO_PASSWORD)
    assert urlsplit(page.url).path == f"/app/{lindenhof['id']}/"
    cash = page.locator("#tile-paymentscash_collected .big .figure")
    value, text = float(cash.get_attribute("data-value")), cash.text_content().strip()
    # de, EUR: 69.500,00 €.
    assert re.fullmatch(r"\d{1,3}(\.\d{3})*,\d{2}\xa0€", text), text
    assert float(text.rstrip("€").strip().replace(".", "").replace(",", ".")) == pytest.approx(
        value
    )
    rate = page.locator("#tile-callsshow_rate .big .figure").text_content().strip()
    assert re.fullmatch(r"\d{1,3},\d\xa0%", rate), rate
    assert "Dates and times are in Europe/Berlin time (Berlin, UTC+" in page_text(page)


def test_a_chart_shows_the_values_under_the_pointer(page, demo):
    northwind = demo["workspaces"][0]
    page.goto("/accounts/login/?next=/")
    sign_in(page, person(northwind, "owner")["email"], DEMO_PASSWORD)
    page.wait_for_selector("#cash-chart canvas")
    over = page.locator("#cash-chart .u-over")
    over.scroll_into_view_if_needed()
    box = over.bounding_box()
    over.hover(position={"x": 5, "y": 5})
    over.hover(position={"x": box["width"] * 0.5, "y": box["height"] * 0.5})
    tip = page.locator("#cash-chart-tip")
    tip.wait_for(state="visible")
    lines = tip.evaluate("e => Array.from(e.children).map(c => c.textContent)")
    day = lines[0]
    assert re.fullmatch(r"\d{1,2} [A-Z][a-z]{2} \d{4}", day), day
    # The day's row of the table under the chart holds the same values.
    row = page.locator("#cash-chart-table tbody tr", has=page.locator(f'th:text-is("{day}")'))
    cells = row.locator("td .figure").all_text_contents()
    assert lines[1:] == [
        f"Cash collected: {cells[0].strip()}",
        f"Revenue booked: {cells[1].strip()}",
    ]


def test_a_headline_figure_opens_its_records(page, demo):
    northwind = demo["workspaces"][0]
    page.goto("/accounts/login/?next=/")
    sign_in(page, person(northwind, "owner")["email"], DEMO_PASSWORD)
    for metric, tile in (("leads.created", "leadscreated"), ("calls.taken", "callstaken")):
        figure = page.locator(f"#tile-{tile} .big .figure")
        expected = int(figure.get_attribute("data-value"))
        assert figure.get_attribute("data-metric") == metric
        with page.expect_navigation():
            page.click(f"#list-{tile}")
        assert int(page.get_attribute("#records-count", "data-total")) == expected
        shown = page.locator("#records tr.record").count()
        assert shown == min(expected, 50)
        if metric == "calls.taken":
            shot(page, "records-calls.png")
        page.go_back()


def test_a_new_workspace_sees_the_checklist_until_records_arrive(
    page, make_workspace, make_member, make_user
):
    workspace = make_workspace(name="Fresh Start", timezone="Europe/Berlin")
    owner = make_member(workspace, "owner", name="Olive Owner", user=False)
    owner.user = make_user("olive@fresh.test")
    owner.email = "olive@fresh.test"
    owner.save()
    page.goto("/accounts/login/?next=/")
    sign_in(page, owner.email)
    assert page.is_visible("#first-run")
    assert page.get_attribute("#step-connect", "class") == "todo"
    assert page.get_attribute("#step-invite", "class") == "todo"
    assert page.locator("#cash-chart").count() == 0
    shot(page, "first-run.png")
    with page.expect_navigation():
        page.click("#checklist-members")
    assert urlsplit(page.url).path == f"/settings/{workspace.pk}/members/"

    Records(workspace).lead("2026-03-01 09:00", tz="Europe/Berlin")
    page.goto(f"/app/{workspace.pk}/")
    assert page.locator("#first-run").count() == 0
    page.wait_for_selector("#cash-chart canvas")


def test_an_owner_retries_a_connection_that_could_not_reach_its_provider(
    page, make_workspace, make_member, make_user, backfills
):
    workspace = make_workspace(name="Northwind Sales", timezone="Europe/Berlin")
    owner = make_member(workspace, "owner", name="Olive Owner", user=False)
    owner.user = make_user("olive@northwind.test")
    owner.email = "olive@northwind.test"
    owner.save()
    connection = services.connection_create(
        workspace=workspace,
        provider="calendly",
        credentials={"personal_access_token": calendly.TOKEN},
        actor=Actor(kind="user", id="1", label=owner.email),
    )
    Connection.objects.filter(pk=connection.pk).update(
        state="failing",
        last_error="HTTPSConnectionPool(host='api.calendly.com', port=443): Max retries "
        "exceeded (Caused by NameResolutionError)",
        last_error_kind="unreachable",
        last_error_at=datetime(2026, 3, 2, 13, 50, tzinfo=UTC),
    )
    backfills.clear()
    page.goto(f"/settings/{workspace.pk}/integrations/")
    sign_in(page, owner.email)
    section = f"#connection-{connection.pk}"
    assert page.text_content(f"{section} .failure-sentence").strip() == (
        "Calendly could not be reached; we will retry at 2 Mar 2026, 15:05."
    )
    assert "HTTPSConnectionPool" not in page_text(page)
    assert page.locator(".ok").count() == 0
    with page.expect_navigation():
        page.click(f"#retry-{connection.pk}")
    assert "Trying Calendly again now" in page.text_content("[role=status]")
    assert backfills == [connection.pk]
