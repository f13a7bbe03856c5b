"""The record lists newest first, sorted by a heading's link both ways and across pages
(keyset on the sort value and the id, empty values last), filtered by closer, setter,
outcome, kind and the lead's UTM values kept in the address, each filter a chip with its
remove link, and a value naming nothing here left out with a note."""

import re
from html import unescape

import pytest

from dashboard import records
from tests.figures.conftest import Records
from workspaces.models import Payment

from .conftest import MARCH, signed_in
from .test_lists import (
    csv_of,
    link,
    listed,
    page_through,
    shown,
    shows_rows,
    table_rows,
    total,
)

pytestmark = pytest.mark.django_db

PERIOD = "?range=custom&from=2026-03-01&to=2026-03-31"
GOOGLE = {
    "utm_source": "google",
    "utm_medium": "cpc",
    "utm_campaign": "spring",
    "utm_content": "ad1",
}
NONE = dict.fromkeys(GOOGLE, "(none)")


@pytest.fixture
def shop(make_workspace, make_member):
    """A UTC workspace's March: five leads, four sales and five payments, hand-built."""
    ws = make_workspace(timezone="UTC", name="Shop")
    owner = make_member(ws, "owner", name="Olga Owner")
    dana = make_member(ws, "closer", name="Dana Reyes")
    sam = make_member(ws, "closer", name="Sam Stone")
    pat = make_member(ws, "setter", name="Pat Lee")
    rec = Records(ws)
    ann = rec.lead("2026-03-02 09:00", name="Ann Alpha", setter=pat, **GOOGLE)
    bob = rec.lead("2026-03-04 09:00", name="bob Beta", **GOOGLE)
    cy = rec.lead(
        "2026-03-06 09:00",
        name="Cy Gamma",
        utm_source="facebook",
        utm_medium="paid",
        utm_campaign="launch",
    )
    dee = rec.lead("2026-03-08 09:00", email="dee@x.test")
    rec.lead("2026-03-10 09:00")  # no name, no email: "(no name)"
    s1 = rec.sale(300000, "2026-03-03 12:00", lead=ann, closer=dana, setter=pat)
    s2 = rec.sale(200000, "2026-03-05 12:00", lead=bob, closer=sam)
    s3 = rec.sale(500000, "2026-03-07 12:00", lead=cy, closer=dana)
    s4 = rec.sale(100000, "2026-03-09 12:00", lead=dee)
    payments = {
        "ann-1": rec.payment(s1, 100000, "2026-03-03 13:00"),
        "ann-2": rec.payment(s1, 50000, "2026-03-20 10:00"),
        "bob": rec.payment(s2, 200000, "2026-03-05 13:00"),
        "cy": rec.payment(s3, 70000, "2026-03-07 13:00"),
        "dee": rec.payment(s4, 100000, "2026-03-09 13:00"),
    }
    rec.refund(payments["cy"], 20000, "2026-03-12 10:00", kind="chargeback")
    rec.refund(payments["ann-1"], 10000, "2026-03-14 10:00")
    return {
        "workspace": ws,
        "owner": owner,
        "dana": dana,
        "sam": sam,
        "pat": pat,
        "payments": payments,
    }


def amounts(html: str) -> list[str]:
    return [row[3] for row in table_rows(html)]


def chips(html: str) -> list[tuple[str, str]]:
    """Each chip's words and its remove link."""
    return [
        (unescape(words), unescape(href))
        for words, href in re.findall(
            r'<span class="chip-words">([^<]*)</span> <a href="([^"]*)" class="chip-remove"', html
        )
    ]


def order(html: str) -> str:
    return re.search(r'<span id="records-order">([^<]*)</span>', html).group(1)


def test_a_list_opens_newest_first_says_so_and_its_csv_keeps_the_order(shop):
    ws = shop["workspace"]
    client = signed_in(shop["owner"])
    html = client.get(f"/app/{ws.pk}/payments/", MARCH).content.decode()
    assert order(html) == "Newest first."
    assert [row[2] for row in table_rows(html)] == [
        "20 Mar 2026, 10:00",
        "9 Mar 2026, 13:00",
        "7 Mar 2026, 13:00",
        "5 Mar 2026, 13:00",
        "3 Mar 2026, 13:00",
    ]
    assert amounts(html) == ["$500.00", "$1,000.00", "$700.00", "$2,000.00", "$1,000.00"]
    # The time's heading says it is the sort, and its link turns it round.
    assert '<th scope="col" class="sortable" aria-sort="descending"><a href="' in html
    assert link(html, "sort-paid") == f"{PERIOD}&sort=paid&dir=asc"
    assert link(html, "sort-amount") == f"{PERIOD}&sort=amount&dir=desc"
    assert link(html, "sort-lead") == f"{PERIOD}&sort=lead&dir=asc"
    rows = csv_of(client.get(f"/app/{ws.pk}/payments/{link(html, 'export-csv')}"))
    assert [row[4] for row in rows[1:]] == amounts(html)
    # Each cell is labelled by its heading, which a phone shows beside it on the card.
    assert '<td data-label="Amount">$500.00</td>' in html
    assert '<td data-label="Paid">20 Mar 2026, 10:00</td>' in html
    # A sort the list has not is the default's.
    odd = client.get(f"/app/{ws.pk}/payments/", {**MARCH, "sort": "<b>", "dir": "asc"})
    assert order(odd.content.decode()) == "Newest first."
    assert listed(odd.content.decode()) == listed(html)


def test_amounts_sort_both_ways_across_pages_with_ties_in_id_order(
    shop, monkeypatch, django_assert_max_num_queries
):
    ws = shop["workspace"]
    monkeypatch.setattr(records, "PAGE_SIZE", 2)
    client = signed_in(shop["owner"])
    p = shop["payments"]
    # 1,000.00 twice: the tie is broken by the id, the same way as the amount.
    tie = sorted([p["ann-1"].pk, p["dee"].pk])
    smallest = [p["ann-2"].pk, p["cy"].pk, *tie, p["bob"].pk]
    base = f"/app/{ws.pk}/payments/"
    for direction, expected in (("asc", smallest), ("desc", smallest[::-1])):
        url = f"{base}{PERIOD}&sort=amount&dir={direction}"
        seen, pages, htmls = [], [], []
        while url:
            with django_assert_max_num_queries(12):
                html = client.get(url).content.decode()
            htmls.append(html)
            seen += listed(html)
            pages.append(shown(html))
            found = re.search(r'<a href="(\?[^"]+)" id="next-page">', html)
            url = f"{base}{unescape(found.group(1))}" if found else None
        assert seen == [str(pk) for pk in expected]
        assert pages == [shows_rows(1, 2, 5), shows_rows(3, 4, 5), shows_rows(5, 5, 5)]
        words = "smallest first" if direction == "asc" else "largest first"
        assert order(htmls[0]) == f"By amount, {words}."
        sorted_th = "ascending" if direction == "asc" else "descending"
        assert f'<th scope="col" class="sortable" aria-sort="{sorted_th}"><a href="' in htmls[0]
        assert 'id="sort-amount"' in htmls[0]
        # Back from the last page: the middle one, the same rows.
        back = client.get(f"{base}{link(htmls[2], 'previous-page')}").content.decode()
        assert listed(back) == listed(htmls[1]) and shown(back) == shows_rows(3, 4, 5)
        # The export has every row in the same order.
        rows = csv_of(client.get(f"{base}{link(htmls[0], 'export-csv')}"))
        amounts_sorted = ["$500.00", "$700.00", "$1,000.00", "$1,000.00", "$2,000.00"]
        expected_amounts = amounts_sorted if direction == "asc" else amounts_sorted[::-1]
        assert [row[4] for row in rows[1:]] == expected_amounts
    # The amount's heading, sorted smallest first, turns to largest first.
    html = client.get(f"{base}{PERIOD}&sort=amount&dir=asc").content.decode()
    assert link(html, "sort-amount") == f"{PERIOD}&sort=amount&dir=desc"
    assert link(html, "sort-paid") == f"{PERIOD}&sort=paid&dir=desc"


def test_names_sort_case_aside_and_a_lead_without_one_comes_last_both_ways(shop, monkeypatch):
    ws = shop["workspace"]
    monkeypatch.setattr(records, "PAGE_SIZE", 2)
    client = signed_in(shop["owner"])
    base = f"/app/{ws.pk}/leads/"

    def names(url: str) -> list[str]:
        found, pages = [], []
        while url:
            html = client.get(url).content.decode()
            pages.append(html)
            found += [row[0] for row in table_rows(html)]
            more = re.search(r'<a href="(\?[^"]+)" id="next-page">', html)
            url = f"{base}{unescape(more.group(1))}" if more else None
        return found, pages

    a_to_z, pages = names(f"{base}{PERIOD}&sort=lead&dir=asc")
    assert a_to_z == ["Ann Alpha", "bob Beta", "Cy Gamma", "dee@x.test", "(no name)"]
    assert order(pages[0]) == "By lead, A to Z."
    z_to_a, pages = names(f"{base}{PERIOD}&sort=lead&dir=desc")
    assert z_to_a == ["dee@x.test", "Cy Gamma", "bob Beta", "Ann Alpha", "(no name)"]
    # Back from the page of the lead without a name (its cursor's value is empty).
    back = client.get(f"{base}{link(pages[2], 'previous-page')}").content.decode()
    assert [row[0] for row in table_rows(back)] == ["bob Beta", "Ann Alpha"]
    # First contact: none has one, all are last; the ids order them, the sort's way.
    html = client.get(f"{base}{PERIOD}&sort=first_contact&dir=desc").content.decode()
    assert order(html) == "By first contact, newest first."
    # The period picker keeps the order.
    picker = re.search(r'<form [^>]*id="period-picker".*?</form>', html, re.S).group(0)
    assert '<input type="hidden" name="sort" value="first_contact">' in picker


def test_each_filter_is_a_chip_whose_link_removes_it(shop):
    ws, dana, pat = shop["workspace"], shop["dana"], shop["pat"]
    client = signed_in(shop["owner"])
    base = f"/app/{ws.pk}/payments/"
    html = client.get(base, {**MARCH, "closer": str(dana.pk)}).content.decode()
    assert total(html) == 3
    assert amounts(html) == ["$500.00", "$700.00", "$1,000.00"]  # Ann's twice, Cy's
    assert chips(html) == [("Closer: Dana Reyes", PERIOD)]
    both = client.get(
        base, {**MARCH, "closer": str(dana.pk), "utm_source": "google", "sort": "amount"}
    ).content.decode()
    assert amounts(both) == ["$1,000.00", "$500.00"]  # Ann's: Cy came from facebook
    assert chips(both) == [
        ("Closer: Dana Reyes", f"{PERIOD}&utm_source=google&sort=amount&dir=desc"),
        ("Source: google", f"{PERIOD}&closer={dana.pk}&sort=amount&dir=desc"),
    ]
    # Removing the closer keeps the source and the order: Ann's two and Bob's.
    left = client.get(base + chips(both)[0][1]).content.decode()
    assert amounts(left) == ["$2,000.00", "$1,000.00", "$500.00"]
    assert chips(left) == [("Source: google", f"{PERIOD}&sort=amount&dir=desc")]
    # The next pages, the export and the search keep the filters.
    assert link(both, "export-csv") == (
        f"{PERIOD}&closer={dana.pk}&utm_source=google&sort=amount&dir=desc&export=csv"
    )
    setter = client.get(base, {**MARCH, "setter": str(pat.pk)}).content.decode()
    assert amounts(setter) == ["$500.00", "$1,000.00"]
    assert chips(setter) == [("Setter: Pat Lee", PERIOD)]
    # A refund's kind, a call's closer: each list's own.
    kind = client.get(f"/app/{ws.pk}/refunds/", {**MARCH, "kind": "chargeback"})
    kind = kind.content.decode()
    assert table_rows(kind) == [["Cy Gamma", "—", "12 Mar 2026, 10:00", "$200.00", "chargeback"]]
    assert chips(kind) == [("Kind: chargeback", PERIOD)]
    sam = client.get(f"/app/{ws.pk}/sales/", {**MARCH, "closer": str(shop["sam"].pk)})
    assert [row[0] for row in table_rows(sam.content.decode())] == ["bob Beta"]


def test_the_filter_forms_choices_and_its_any(shop):
    ws, dana = shop["workspace"], shop["dana"]
    client = signed_in(shop["owner"])
    html = client.get(f"/app/{ws.pk}/payments/", MARCH).content.decode()
    form = re.search(r'<form [^>]*id="records-filter-form".*?</form>', html, re.S).group(0)
    closer = re.search(r'<select name="closer".*?</select>', form, re.S).group(0)
    # The closers first, then the other roles.
    assert re.findall(r'<optgroup label="([^"]+)">', closer) == ["Closers", "Owners", "Setters"]
    assert f'<option value="{dana.pk}">Dana Reyes</option>' in closer
    source = re.search(r'<select name="utm_source".*?</select>', form, re.S).group(0)
    assert re.findall(r'<option value="([^"]*)"', source) == ["", "(none)", "facebook", "google"]
    # The form's "Any" (an empty value) filters nothing.
    empty = {**MARCH, "closer": "", "setter": "", "utm_source": "", "utm_campaign": ""}
    anything = client.get(f"/app/{ws.pk}/payments/", empty).content.decode()
    assert total(anything) == 5 and chips(anything) == []
    chosen = client.get(f"/app/{ws.pk}/payments/", {**MARCH, "closer": str(dana.pk)})
    assert f'<option value="{dana.pk}" selected>Dana Reyes</option>' in chosen.content.decode()


def test_a_filter_naming_nothing_here_is_left_out_and_said(
    shop, make_workspace, make_member, figures_data, team
):
    ws = shop["workspace"]
    client = signed_in(shop["owner"])
    stranger = make_member(make_workspace(), "closer", name="Other Closer")
    for value in ("not-a-uuid", str(stranger.pk), str(team["closer"].pk)):
        answer = client.get(f"/app/{ws.pk}/payments/", {**MARCH, "closer": value})
        assert answer.status_code == 200
        html = answer.content.decode()
        assert total(html) == 5 and chips(html) == []
        assert (
            f"No member of this workspace has the closer id “{value}”: the list is not "
            "filtered by closer." in unescape(html)
        )
    # A value written as markup is escaped.
    html = client.get(f"/app/{ws.pk}/payments/", {**MARCH, "setter": "<b>x"}).content.decode()
    assert "“&lt;b&gt;x”" in html and "<b>x" not in html
    # An outcome the calls do not have.
    team_client = signed_in(team["owner"])
    calls = team_client.get(
        f"/app/{team['workspace'].pk}/calls/", {**MARCH, "figure": "taken", "outcome": "won"}
    ).content.decode()
    assert total(calls) == 3
    refused = "“won” is not one of the outcomes the list knows: the list is not filtered by"
    assert f"{refused} outcome." in unescape(calls)
    # ?member= of another workspace stays the 404 page it was.
    answer = client.get(f"/app/{ws.pk}/payments/", {**MARCH, "member": str(stranger.pk)})
    assert answer.status_code == 404


def test_the_figures_filters_are_chips_too(team, figures_data):
    ws, closer = team["workspace"], team["closer"]
    client = signed_in(team["owner"])
    taken = client.get(f"/app/{ws.pk}/calls/", {**MARCH, "figure": "taken"}).content.decode()
    assert chips(taken) == [("Figure: calls taken", PERIOD)]
    no_sale = client.get(
        f"/app/{ws.pk}/calls/", {**MARCH, "figure": "taken", "outcome": "no_sale"}
    ).content.decode()
    assert [row[2:] for row in table_rows(no_sale)] == [
        ["3 Mar 2026, 10:00", "Closer Person", "Setter Person", "no sale"]
    ]
    assert chips(no_sale) == [
        ("Figure: calls taken", f"{PERIOD}&outcome=no_sale"),
        ("Outcome: no sale", f"{PERIOD}&figure=taken"),
    ]
    waiting = client.get(f"/app/{ws.pk}/leads/", {**MARCH, "waiting": "1"}).content.decode()
    assert chips(waiting) == [("Not yet contacted", PERIOD)]
    commission = client.get(
        f"/app/{ws.pk}/payments/", {**MARCH, "member": str(closer.pk), "slot": "closer"}
    ).content.decode()
    # Removing the commission's member removes its slot with it.
    assert chips(commission) == [("Closer: Closer Person", PERIOD)]
    google = client.get(f"/app/{ws.pk}/leads/", {**MARCH, "utm_source": "google"})
    assert chips(google.content.decode()) == [("Source: google", PERIOD)]


def test_the_payments_and_sales_of_an_attribution_row_add_up_to_its_closes_and_cash(
    shop, api, workspace_token
):
    ws = shop["workspace"]
    client = signed_in(shop["owner"])
    answer = api(workspace_token(ws)).get("/api/v1/attribution?from=2026-03-01&to=2026-03-31")
    rows = {tuple(row[name] for name in GOOGLE): row for row in answer.json()["data"]["rows"]}
    for labels, closes, cash in ((GOOGLE, 2, 3500), (NONE, 1, 1000)):
        row = rows[tuple(labels.values())]
        assert (row["closes"]["value"], row["cash_collected"]["value"]) == (closes, cash)
        sales = client.get(f"/app/{ws.pk}/sales/", {**MARCH, **labels}).content.decode()
        assert total(sales) == closes
        payments = csv_of(
            client.get(f"/app/{ws.pk}/payments/", {**MARCH, **labels, "export": "csv"})
        )
        assert sum(int(payment[5]) for payment in payments[1:]) / 100 == cash
        page = client.get(f"/app/{ws.pk}/payments/", {**MARCH, **labels}).content.decode()
        assert total(page) == len(payments) - 1
        assert [words for words, _ in chips(page)] == [
            f"Source: {labels['utm_source']}",
            f"Medium: {labels['utm_medium']}",
            f"Campaign: {labels['utm_campaign']}",
            f"Content: {labels['utm_content']}",
        ]
    # Google's: Ann's two payments and Bob's; no source: Dee's.
    google = client.get(f"/app/{ws.pk}/payments/", {**MARCH, **GOOGLE}).content.decode()
    assert amounts(google) == ["$500.00", "$2,000.00", "$1,000.00"]
    assert Payment.objects.filter(workspace=ws).count() == 5


@pytest.mark.parametrize(
    ("path", "keys", "rows"),
    [
        ("payments/", ("paid", "amount", "lead"), 2),
        ("sales/", ("closed", "contract_value", "cash_collected", "lead"), 1),
        ("refunds/", ("refunded", "amount", "lead"), 1),
        ("eod-reports/", ("day", "member", "filed"), 1),
        ("calls/?figure=show_rate", ("scheduled", "lead"), 4),
        # All but Sally have no name or email, and none a first contact: ties of empty
        # values, ordered by their ids.
        ("leads/", ("created", "lead", "first_contact"), 8),
    ],
)
def test_every_sort_pages_both_ways_through_the_same_rows(
    team, figures_data, monkeypatch, django_assert_max_num_queries, path, keys, rows
):
    ws = team["workspace"]
    monkeypatch.setattr(records, "PAGE_SIZE", 1)
    client = signed_in(team["owner"])
    base = f"/app/{ws.pk}/{path.split('?')[0]}"
    extra = "&" + path.split("?")[1] if "?" in path else ""
    everyone = None
    for key in keys:
        for direction in ("asc", "desc"):
            forward, backward, _ = page_through(
                client,
                base,
                f"{base}{PERIOD}{extra}&sort={key}&dir={direction}",
                django_assert_max_num_queries,
            )
            assert backward == forward and len(set(forward)) == len(forward) == rows
            everyone = everyone or set(forward)
            assert set(forward) == everyone
            exported = csv_of(
                client.get(f"{base}{PERIOD}{extra}&sort={key}&dir={direction}&export=csv")
            )
            assert len(exported) - 1 == rows
