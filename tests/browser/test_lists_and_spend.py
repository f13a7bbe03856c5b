"""A person clicks a figure of the overview, lands on the records behind it and downloads
them as CSV, whose rows are the list's; the Acquisition page draws spend against cash with
no console error or content-security-policy refusal, on a laptop and on a phone."""

import csv
import io
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from demo.services import DEMO_PASSWORD, demo_create

from .conftest import PHONE, BrowserErrors, shot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 768}
# The columns a CSV adds for a program beside a time, an amount or a number.
MACHINE = re.compile(r" \((UTC, ISO 8601|ISO 8601|minor units|currency|number|fraction)\)$")


@pytest.fixture
def demo():
    data, _ = demo_create()
    return data["workspaces"][0]


def owner_of(demo):
    return next(entry for entry in demo["members"] if entry["role"] == "owner")


def open_browser(chromium, live_server, viewport):
    context = chromium.new_context(
        viewport=viewport, base_url=live_server.url, accept_downloads=True
    )
    context.set_default_timeout(15_000)
    errors = BrowserErrors(context)
    console_errors = []
    context.on(
        "console",
        lambda message: message.type == "error" and console_errors.append(message.text),
    )
    return context, errors, console_errors


def list_rows(page) -> list[list[str]]:
    return page.eval_on_selector_all(
        "#records tbody tr",
        "rows => rows.map(row => [...row.children].map(cell => cell.textContent.trim()))",
    )


def open_nav(page, viewport) -> None:
    """On a phone the navigation is folded behind its Menu button."""
    if viewport is PHONE and page.is_visible("#menu-button"):
        page.click("#menu-button")


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_figure_opens_its_payments_and_they_download_as_csv(
    chromium, live_server, demo, viewport
):
    suffix = "" if viewport is LAPTOP else "-phone"
    context, errors, console_errors = open_browser(chromium, live_server, viewport)
    page = context.new_page()
    page.goto("/accounts/login/?next=/")
    sign_in(page, owner_of(demo)["email"], DEMO_PASSWORD)
    overview = f"/app/{demo['id']}/"
    assert urlsplit(page.url).path == overview
    page.wait_for_selector("#cash-chart canvas")
    # The demo has ad spend: its tiles stand beside cash collected.
    tiles = page.eval_on_selector_all("#headline article.tile", "ts => ts.map(t => t.id)")
    assert tiles[:4] == [
        "tile-paymentscash_collected",
        "tile-acquisitionspend",
        "tile-acquisitioncost_per_close",
        "tile-acquisitionroas",
    ]
    cash_value = page.get_attribute("#tile-paymentscash_collected .big .figure", "data-value")
    shot(page, f"overview-spend{suffix}.png")

    with page.expect_navigation():
        page.click("#list-paymentscash_collected")
    assert urlsplit(page.url).path == f"/app/{demo['id']}/payments/"
    assert page.text_content("#records-title").strip() == "Payments"
    total = int(page.get_attribute("#records-count", "data-total"))
    rows = list_rows(page)
    assert 0 < len(rows) <= 50
    assert page.text_content("#records-shown").strip() == f"1\N{EN DASH}{len(rows)} of {total:,}"
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shot(page, f"records-payments{suffix}.png")

    with page.expect_download() as download_info:
        page.click("#export-csv")
    download = download_info.value
    assert download.suggested_filename.startswith("payments-")
    assert Path(download.path()).read_bytes().startswith(b"\xef\xbb\xbf")
    text = Path(download.path()).read_text(encoding="utf-8-sig")
    exported = list(csv.reader(io.StringIO(text)))
    headings = exported[0]
    shown_columns = [n for n, heading in enumerate(headings) if not MACHINE.search(heading)]
    # The page's headings, without the sorted one's arrow and its words.
    assert [headings[n] for n in shown_columns] == page.eval_on_selector_all(
        "#records thead th",
        """cells => cells.map(cell => {
            const heading = cell.cloneNode(true);
            heading.querySelectorAll(".sort-direction").forEach(mark => mark.remove());
            return heading.textContent.trim();
        })""",
    )
    assert len(exported) - 1 == total
    # The rows the page shows, the CSV writing their times to the second (the page to the
    # minute, its seconds cut).
    paid = headings.index("Paid")
    assert [
        [row[n][:-3] if n == paid else row[n] for n in shown_columns]
        for row in exported[1 : len(rows) + 1]
    ] == rows
    assert all(re.fullmatch(r".*\d{2}:\d{2}:\d{2}", row[paid]) for row in exported[1:])
    # The amounts in minor units add up to the figure the tile showed.
    minor = headings.index("Amount (minor units)")
    assert sum(int(row[minor]) for row in exported[1:]) == round(float(cash_value) * 100)

    # A search by a lead's name keeps that lead's payments only.
    name = rows[0][0]
    page.fill("#q", name)
    with page.expect_navigation():
        page.click("#search-button")
    found = list_rows(page)
    assert found and all(row[0] == name for row in found)
    assert page.input_value("#q") == name
    with page.expect_navigation():
        page.click("#clear-search")
    assert list_rows(page) == rows

    # The next page, and back.
    if total > len(rows):
        with page.expect_navigation():
            page.click("#next-page")
        assert page.text_content("#records-shown").strip().startswith("51\N{EN DASH}")
        with page.expect_navigation():
            page.click("#previous-page")
        assert list_rows(page) == rows
    context.close()
    assert errors.messages == []
    assert console_errors == []


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_acquisition_page_draws_spend_against_cash(chromium, live_server, demo, viewport):
    suffix = "" if viewport is LAPTOP else "-phone"
    context, errors, console_errors = open_browser(chromium, live_server, viewport)
    page = context.new_page()
    page.goto("/accounts/login/?next=/")
    sign_in(page, owner_of(demo)["email"], DEMO_PASSWORD)
    open_nav(page, viewport)
    with page.expect_navigation():
        page.click("#nav-acquisition")
    assert urlsplit(page.url).path == f"/app/{demo['id']}/acquisition/"
    assert page.get_attribute("#nav-acquisition", "aria-current") == "page"
    page.wait_for_selector("#spend-chart canvas")
    assert page.locator("#acquisition-table .acquisition-row").count() > 0
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shot(page, f"acquisition{suffix}.png")

    # A row opens its spend records, of its source and campaign.
    first = page.locator("#acquisition-table .row-spend").first
    source, campaign = (part.strip() for part in first.text_content().split(" / "))
    with page.expect_navigation():
        first.click()
    query = parse_qs(urlsplit(page.url).query)
    assert (query["utm_source"], query["utm_campaign"]) == ([source], [campaign])
    assert page.locator("#records tbody tr").count() > 0
    context.close()
    assert errors.messages == []
    assert console_errors == []


def money_minor(text: str) -> int:
    """$1,500.00 as 150000 (the demo's currency has two decimals)."""
    return int(re.sub(r"\D", "", text))


def column(page, label: str) -> list[str]:
    return page.eval_on_selector_all(
        f'#records tbody [data-label="{label}"]', "cells => cells.map(c => c.textContent.trim())"
    )


def test_a_list_sorts_by_a_heading_filters_by_a_closer_and_shows_cards_on_a_phone(
    chromium, live_server, demo
):
    context, errors, console_errors = open_browser(chromium, live_server, LAPTOP)
    page = context.new_page()
    page.goto("/accounts/login/?next=/")
    sign_in(page, owner_of(demo)["email"], DEMO_PASSWORD)
    page.wait_for_selector("#list-paymentscash_collected")
    with page.expect_navigation():
        page.click("#list-paymentscash_collected")
    assert page.text_content("#records-order").strip() == "Newest first."
    paid = page.eval_on_selector_all(
        "#records tbody tr",
        "rows => rows.map(row => row.dataset.id)",
    )
    assert paid
    assert page.get_attribute("#records thead th:nth-child(3)", "aria-sort") == "descending"

    # The Amount heading sorts largest first, then, clicked again, smallest first.
    with page.expect_navigation():
        page.click("#sort-amount")
    query = parse_qs(urlsplit(page.url).query)
    assert (query["sort"], query["dir"]) == (["amount"], ["desc"])
    assert page.get_attribute("#records thead th:nth-child(4)", "aria-sort") == "descending"
    largest = [money_minor(text) for text in column(page, "Amount")]
    assert largest == sorted(largest, reverse=True)
    assert page.text_content("#records-order").strip() == "By amount, largest first."
    with page.expect_navigation():
        page.click("#sort-amount")
    smallest = [money_minor(text) for text in column(page, "Amount")]
    assert smallest == sorted(smallest)
    assert parse_qs(urlsplit(page.url).query)["dir"] == ["asc"]

    # A closer picked in the filter form: a chip says so, every row is theirs.
    closer = page.locator("#filter-closer optgroup[label='Closers'] option").first
    closer_id, closer_name = closer.get_attribute("value"), closer.text_content().strip()
    page.select_option("#filter-closer", closer_id)
    with page.expect_navigation():
        page.click("#filter-button")
    query = parse_qs(urlsplit(page.url).query)
    assert query["closer"] == [closer_id] and query["sort"] == ["amount"]
    assert page.text_content("#records-chips .chip-words").strip() == f"Closer: {closer_name}"
    closers = column(page, "Closer")
    assert closers and set(closers) == {closer_name}
    filtered = int(page.get_attribute("#records-count", "data-total"))
    shot(page, "records-sorted-filtered.png")

    # Its remove link: every closer again, still smallest first.
    with page.expect_navigation():
        page.click("#remove-closer")
    query = parse_qs(urlsplit(page.url).query)
    assert "closer" not in query and query["sort"] == ["amount"]
    assert page.locator("#records-chips").count() == 0
    assert int(page.get_attribute("#records-count", "data-total")) > filtered
    filtered_url = page.url
    context.close()
    assert errors.messages == []
    assert console_errors == []

    # On a phone each row is a card: its amount and date beside their headings.
    context, errors, console_errors = open_browser(chromium, live_server, PHONE)
    page = context.new_page()
    page.goto("/accounts/login/?next=/")
    sign_in(page, owner_of(demo)["email"], DEMO_PASSWORD)
    page.goto(filtered_url)
    first = page.locator("#records tbody tr").first
    assert first.evaluate("row => getComputedStyle(row).display") == "block"
    for label in ("Amount", "Paid", "Lead"):
        cell = first.locator(f'[data-label="{label}"]')
        assert cell.is_visible()
        assert cell.evaluate("c => getComputedStyle(c, '::before').content") == f'"{label}"'
    # The headings that sort stay above the cards, reachable and named; the others label
    # the cells.
    assert page.is_visible("#sort-amount") and page.is_visible("#sort-paid")
    assert not page.is_visible("#records thead th:nth-child(2)")  # Email
    with page.expect_navigation():
        page.click("#sort-paid")
    assert page.text_content("#records-order").strip() == "Newest first."
    first = page.locator("#records tbody tr").first
    box = first.bounding_box()
    assert box["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "records-cards-phone.png")
    context.close()
    assert errors.messages == []
    assert console_errors == []
