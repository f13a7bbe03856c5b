"""Every number opens its rows: the payments, refunds, sales, calls, EOD reports and leads
behind the overview's figures, paged both ways ("1-3 of 8", with an en dash), searched by name or email, and
exported as CSV with the same rows, written as the page writes them with a machine-readable
column beside each time and amount."""

import csv
import io
import re
from html import unescape

import pytest

from dashboard import records
from tests.figures.conftest import Records
from workspaces.models import Lead

from .conftest import MARCH, signed_in

pytestmark = pytest.mark.django_db


def listed(html: str) -> list[str]:
    return re.findall(r'<tr class="record" data-id="([^"]+)">', html)


def total(html: str) -> int:
    return int(re.search(r'id="records-count" data-total="(\d+)"', html).group(1))


def shown(html: str) -> str:
    return unescape(re.search(r'<p class="shown" id="records-shown">([^<]*)</p>', html).group(1))


def shows_rows(first: int, last: int, of: int) -> str:
    return f"{first}\N{EN DASH}{last} of {of}"


def table_rows(html: str) -> list[list[str]]:
    """The list's cells as the page shows them (the text of each th and td)."""
    rows = []
    for row in re.findall(r'<tr class="record"[^>]*>(.*?)</tr>', html, re.S):
        cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        rows.append([unescape(re.sub(r"<[^>]+>", "", cell)) for cell in cells])
    return rows


def link(html: str, element_id: str) -> str:
    found = re.search(rf'<a href="([^"]+)" id="{element_id}"', html)
    assert found, element_id
    return unescape(found.group(1))


def page_through(client, base: str, url: str, max_queries) -> tuple[list, list, list]:
    """A list walked by its Next links to the end and back by its Previous links, each
    page read in at most 12 queries: the row ids forward, backward, and each page's
    "1-50 of 131" line."""
    forward, pages = [], []
    while url:
        with max_queries(12):
            html = client.get(url).content.decode()
        forward += listed(html)
        pages.append(shown(html))
        found = re.search(r'<a href="(\?[^"]+)" id="next-page">', html)
        url = f"{base}{unescape(found.group(1))}" if found else None
    backward = []
    while True:
        backward = listed(html) + backward
        found = re.search(r'<a href="(\?[^"]+)" id="previous-page">', html)
        if not found:
            break
        with max_queries(12):
            html = client.get(f"{base}{unescape(found.group(1))}").content.decode()
    return forward, backward, pages


def csv_of(response) -> list[list[str]]:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response.streaming
    raw = b"".join(response.streaming_content)
    # UTF-8 with a byte-order mark, which Excel needs to read it as UTF-8.
    assert raw.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))


def test_cash_collected_opens_its_payments_and_exports_them(
    team, figures_data, api, workspace_token
):
    ws = team["workspace"]
    client = signed_in(team["owner"])
    overview = client.get(f"/app/{ws.pk}/", MARCH).content.decode()
    url = link(overview, "list-paymentscash_collected")
    assert url == f"/app/{ws.pk}/payments/?range=custom&from=2026-03-01&to=2026-03-31"
    html = client.get(url).content.decode()
    assert total(html) == 2
    assert shown(html) == shows_rows(1, 2, 2)
    # Berlin time (UTC+1 in March): 10:05 and 08:00 UTC.
    # Newest first.
    assert table_rows(html) == [
        ["Sally Sale", "—", "16 Mar 2026, 09:00", "$500.00", "Closer Person", "Setter Person"],
        ["Sally Sale", "—", "2 Mar 2026, 11:05", "$1,500.00", "Closer Person", "Setter Person"],
    ]
    rows = csv_of(client.get(f"/app/{ws.pk}/payments/{link(html, 'export-csv')}"))
    assert rows[0] == [
        "Lead",
        "Email",
        "Paid",
        "Paid (UTC, ISO 8601)",
        "Amount",
        "Amount (minor units)",
        "Amount (currency)",
        "Closer",
        "Setter",
    ]
    # The CSV in the page's order, newest first.
    assert rows[1:] == [
        [
            "Sally Sale",
            "—",
            "16 Mar 2026, 09:00:00",
            "2026-03-16T08:00:00Z",
            "$500.00",
            "50000",
            "USD",
            "Closer Person",
            "Setter Person",
        ],
        [
            "Sally Sale",
            "—",
            "2 Mar 2026, 11:05:00",
            "2026-03-02T10:05:00Z",
            "$1,500.00",
            "150000",
            "USD",
            "Closer Person",
            "Setter Person",
        ],
    ]
    # The CSV's rows are the list's (its times to the second), and they add up to the
    # API's figure.
    assert [[*row[:3], row[4], row[7], row[8]] for row in rows[1:]] == [
        [r[0], r[1], f"{r[2]}:00", *r[3:]] for r in table_rows(html)
    ]
    payments = api(workspace_token(ws)).get("/api/v1/payments?from=2026-03-01&to=2026-03-31")
    cash = payments.json()["data"]["cash_collected"]["value"]
    assert cash == sum(int(row[5]) for row in rows[1:]) / 100 == 2000


def test_revenue_refunds_and_net_cash_open_their_records(team, figures_data):
    ws = team["workspace"]
    client = signed_in(team["owner"])
    overview = client.get(f"/app/{ws.pk}/", MARCH).content.decode()
    sales = client.get(link(overview, "list-paymentsrevenue_booked")).content.decode()
    assert "Sales" in sales and total(sales) == 1
    assert table_rows(sales) == [
        [
            "Sally Sale",
            "—",
            "2 Mar 2026, 11:00",
            "$4,000.00",
            "$2,000.00",
            "Closer Person",
            "Setter Person",
        ],
    ]
    refunds = client.get(link(overview, "list-paymentsrefunded")).content.decode()
    assert table_rows(refunds) == [["Sally Sale", "—", "20 Mar 2026, 11:00", "$100.00", "refund"]]
    # Net cash opens the payments, and beside them the refunds taken off.
    assert link(overview, "list-paymentsnet_cash") == link(overview, "list-paymentscash_collected")
    assert link(overview, "also-paymentsnet_cash") == link(overview, "list-paymentsrefunded")
    net = re.search(r'id="tile-paymentsnet_cash".*?</article>', overview, re.S).group(0)
    assert 'data-value="1900"' in net  # 2,000.00 collected - 100.00 refunded


def test_the_rates_open_the_calls_they_are_taken_over(team, figures_data, api, workspace_token):
    ws = team["workspace"]
    client = signed_in(team["owner"])
    overview = client.get(f"/app/{ws.pk}/", MARCH).content.decode()
    shows = client.get(link(overview, "list-callsshow_rate")).content.decode()
    # 3 showed + 1 no-show in March: the show rate's 3 of 4.
    calls = api(workspace_token(ws)).get("/api/v1/calls?from=2026-03-01&to=2026-03-31").json()
    assert calls["data"]["show_rate"]["value"] == 0.75
    assert total(shows) == 4
    assert [row[-1] for row in table_rows(shows)] == ["deposit", "no show", "no sale", "closed"]
    closes = client.get(link(overview, "list-callsclose_rate")).content.decode()
    assert total(closes) == 3 == calls["data"]["taken"]["value"]
    assert [row[-1] for row in table_rows(closes)] == ["deposit", "no sale", "closed"]


def test_eod_and_commission_rows_open_their_records(team, figures_data):
    ws = team["workspace"]
    client = signed_in(team["owner"])
    overview = client.get(f"/app/{ws.pk}/", MARCH).content.decode()
    eod = client.get(link(overview, "list-eod")).content.decode()
    assert table_rows(eod) == [
        ["Closer Person", team["closer"].email, "2 Mar 2026", "2 Mar 2026, 19:00"]
    ]
    closer = team["closer"]
    member_links = re.findall(r'<a href="([^"]+)" class="member-records">Closer Person', overview)
    commission_link, eod_link = (unescape(url) for url in member_links)
    assert f"member={closer.pk}" in eod_link and "/eod-reports/" in eod_link
    assert commission_link == (
        f"/app/{ws.pk}/payments/?range=custom&from=2026-03-01&to=2026-03-31"
        f"&member={closer.pk}&slot=closer"
    )
    payments = client.get(commission_link).content.decode()
    assert "Payments with Closer Person as closer" in payments
    assert total(payments) == 2
    eod_rows = csv_of(client.get(eod_link + "&export=csv"))
    assert eod_rows == [
        ["Member", "Email", "Day", "Day (ISO 8601)", "Filed", "Filed (UTC, ISO 8601)"],
        [
            "Closer Person",
            closer.email,
            "2 Mar 2026",
            "2026-03-02",
            "2 Mar 2026, 19:00:00",
            "2026-03-02T18:00:00Z",
        ],
    ]


def test_lists_page_both_ways_and_say_which_rows_they_show(team, figures_data, monkeypatch):
    ws = team["workspace"]
    monkeypatch.setattr(records, "PAGE_SIZE", 3)
    client = signed_in(team["owner"])
    first = client.get(f"/app/{ws.pk}/leads/", MARCH).content.decode()
    assert shown(first) == shows_rows(1, 3, 8)
    assert 'id="previous-page"' not in first
    second = client.get(f"/app/{ws.pk}/leads/{link(first, 'next-page')}").content.decode()
    assert shown(second) == shows_rows(4, 6, 8)
    third = client.get(f"/app/{ws.pk}/leads/{link(second, 'next-page')}").content.decode()
    assert shown(third) == shows_rows(7, 8, 8)
    assert 'id="next-page"' not in third
    back = client.get(f"/app/{ws.pk}/leads/{link(third, 'previous-page')}").content.decode()
    assert shown(back) == shows_rows(4, 6, 8)
    assert listed(back) == listed(second)
    start = client.get(f"/app/{ws.pk}/leads/{link(back, 'previous-page')}").content.decode()
    assert listed(start) == listed(first)
    assert 'id="previous-page"' not in start
    expected = list(
        Lead.objects.filter(workspace=ws, created_at__year=2026, created_at__month=3)
        .order_by("-created_at", "-pk")
        .values_list("pk", flat=True)
    )
    assert listed(first) + listed(second) + listed(third) == [str(pk) for pk in expected]


def test_a_list_is_searched_by_name_or_email_and_exports_what_it_found(team, figures_data):
    ws = team["workspace"]
    Lead.objects.filter(workspace=ws, name="Sally Sale").update(email="sally@buyers.test")
    client = signed_in(team["owner"])
    by_name = client.get(f"/app/{ws.pk}/leads/", {**MARCH, "q": "sally"}).content.decode()
    assert total(by_name) == 1 and shown(by_name) == shows_rows(1, 1, 1)
    assert table_rows(by_name)[0][:2] == ["Sally Sale", "sally@buyers.test"]
    by_email = client.get(f"/app/{ws.pk}/payments/", {**MARCH, "q": "BUYERS.test"})
    assert total(by_email.content.decode()) == 2
    nobody = client.get(f"/app/{ws.pk}/leads/", {**MARCH, "q": "nobody"}).content.decode()
    assert total(nobody) == 0 and "None matches “nobody” in this period." in nobody
    # The search is kept by the period picker, the export and the pages.
    picker = re.search(r'<form [^>]*id="period-picker".*?</form>', by_name, re.S).group(0)
    assert '<input type="hidden" name="q" value="sally">' in picker
    assert link(by_name, "clear-search") == "?range=custom&from=2026-03-01&to=2026-03-31"
    exported = csv_of(client.get(f"/app/{ws.pk}/leads/{link(by_name, 'export-csv')}"))
    assert [row[0] for row in exported[1:]] == ["Sally Sale"]


def test_the_leads_csv_is_the_lists_rows_and_the_apis(team, figures_data, api, workspace_token):
    ws = team["workspace"]
    client = signed_in(team["owner"])
    html = client.get(f"/app/{ws.pk}/leads/", MARCH).content.decode()
    rows = csv_of(client.get(f"/app/{ws.pk}/leads/", {**MARCH, "export": "csv"}))
    assert rows[0] == [
        "Lead",
        "Email",
        "Created",
        "Created (UTC, ISO 8601)",
        "Source",
        "Setter",
        "First contact",
        "First contact (UTC, ISO 8601)",
    ]
    page_rows = table_rows(html)
    # The page's columns; a time to the minute on the page, to the second in the file.
    assert [[r[0], r[1], r[2], r[4], r[5], r[6]] for r in rows[1:]] == [
        [r[0], r[1], f"{r[2]}:00", r[3], r[4], r[5]] for r in page_rows
    ]
    answer = api(workspace_token(ws)).get("/api/v1/leads?from=2026-03-01&to=2026-03-31&limit=100")
    leads = answer.json()["data"]["leads"]
    assert len(leads) == len(rows) - 1 == 8
    # Newest first, as the page lists them.
    by_time = sorted(leads, key=lambda lead: (lead["created_at"], lead["id"]), reverse=True)
    assert [row[3] for row in rows[1:]] == [lead["created_at"] for lead in by_time]
    assert [row[1] for row in rows[1:]] == [lead["email"] or "—" for lead in by_time]


def test_csv_writes_a_new_york_euro_workspace_as_its_pages_do(
    make_workspace, make_member, api, workspace_token
):
    ws = make_workspace(timezone="America/New_York", currency="EUR", locale="de_DE")
    owner = make_member(ws, "owner", name="Olga Owner")
    rec = Records(ws)
    lead = rec.lead("2026-03-01 20:00", tz="America/New_York", name="Nora", email="n@x.test")
    sale = rec.sale(500000, "2026-03-01 21:00", tz="America/New_York", lead=lead)
    # 03:30 UTC on 2 March is 22:30 on 1 March in New York.
    rec.payment(sale, 123456, "2026-03-02 03:30")
    client = signed_in(owner)
    rows = csv_of(client.get(f"/app/{ws.pk}/payments/", {**MARCH, "export": "csv"}))
    assert rows[1] == [
        "Nora",
        "n@x.test",
        "1 Mar 2026, 22:30:00",
        "2026-03-02T03:30:00Z",
        "1.234,56\xa0€",
        "123456",
        "EUR",
        "—",
        "—",
    ]
    html = client.get(f"/app/{ws.pk}/payments/", MARCH).content.decode()
    assert table_rows(html) == [
        ["Nora", "n@x.test", "1 Mar 2026, 22:30", "1.234,56\xa0€", "—", "—"]
    ]
    answer = api(workspace_token(ws)).get("/api/v1/payments?from=2026-03-01&to=2026-03-31")
    assert answer.json()["data"]["cash_collected"]["value"] == 1234.56
    sales = csv_of(client.get(f"/app/{ws.pk}/sales/", {**MARCH, "export": "csv"}))
    assert sales[1][2:5] == ["1 Mar 2026, 21:00:00", "2026-03-02T02:00:00Z", "5.000,00\xa0€"]


def test_a_page_table_exports_its_rows(team, figures_data):
    ws = team["workspace"]
    client = signed_in(team["owner"])
    overview = client.get(f"/app/{ws.pk}/", MARCH).content.decode()
    rows = csv_of(client.get(link(overview, "export-attribution")))
    assert rows[0] == [
        "Source",
        "Medium",
        "Campaign",
        "Content",
        "Leads",
        "Leads (number)",
        "Closes",
        "Closes (number)",
        "Cash collected",
        "Cash collected (minor units)",
        "Cash collected (currency)",
        "Close rate",
        "Close rate (fraction)",
    ]
    # The page's order (most leads first): google 4 leads, then (none) 3, facebook 1.
    assert [row[:1] + row[4:6] for row in rows[1:]] == [
        ["google", "4", "4"],
        ["(none)", "3", "3"],
        ["facebook", "1", "1"],
    ]
    # No source: Sally's sale (2,000.00 paid) and February's sale of a lead of March (1,000.00).
    assert rows[2][8:11] == ["$3,000.00", "300000", "USD"]
    eod = csv_of(client.get(link(overview, "export-eod")))
    assert eod[0] == [
        "Member",
        "Email",
        "Role",
        "Due",
        "Due (number)",
        "Filed",
        "Filed (number)",
        "Compliance",
        "Compliance (fraction)",
    ]
    assert [row[0] for row in eod[1:]] == ["Closer Person", "Setter Person"]
    assert eod[1][5:7] == ["1", "1"]
    cash = csv_of(client.get(link(overview, "export-cash-chart")))
    assert len(cash) == 1 + 31
    assert cash[2][:3] == ["2 Mar 2026", "2026-03-02", "2026-03-02"]
    assert cash[2][3:6] == ["$1,500.00", "150000", "USD"]


@pytest.mark.parametrize(
    "path",
    ["payments", "refunds", "sales", "eod-reports", "spend", "tables/attribution", "acquisition"],
)
def test_a_closer_or_setter_gets_the_403_page(team, figures_data, path):
    ws = team["workspace"]
    for role in ("closer", "setter"):
        answer = signed_in(team[role]).get(f"/app/{ws.pk}/{path}/", {**MARCH, "export": "csv"})
        assert answer.status_code == 403
        assert "Only an owner, admin or manager of Northwind Sales" in answer.content.decode()


def test_a_manager_may_and_someone_else_gets_404(team, figures_data, make_workspace, make_member):
    ws = team["workspace"]
    assert signed_in(team["manager"]).get(f"/app/{ws.pk}/payments/", MARCH).status_code == 200
    stranger = make_member(make_workspace(), "owner")
    assert signed_in(stranger).get(f"/app/{ws.pk}/payments/", MARCH).status_code == 404


def test_a_name_a_spreadsheet_would_read_as_a_formula_is_written_as_text(team, figures_data):
    ws = team["workspace"]
    Lead.objects.filter(workspace=ws, name="Sally Sale").update(name='=HYPERLINK("x")')
    client = signed_in(team["owner"])
    rows = csv_of(client.get(f"/app/{ws.pk}/payments/", {**MARCH, "export": "csv"}))
    assert [row[0] for row in rows[1:]] == ['\'=HYPERLINK("x")', '\'=HYPERLINK("x")']
    html = client.get(f"/app/{ws.pk}/payments/", MARCH).content.decode()
    assert table_rows(html)[0][0] == '=HYPERLINK("x")'


@pytest.mark.parametrize(
    ("path", "rows"),
    [
        ("payments/", 2),
        ("sales/", 1),
        ("refunds/", 1),
        ("eod-reports/", 1),
        ("calls/?figure=show_rate", 4),
        ("leads/?utm_source=google", 4),
    ],
)
def test_every_list_pages_forward_and_back_in_a_fixed_number_of_queries(
    team, figures_data, monkeypatch, django_assert_max_num_queries, path, rows
):
    ws = team["workspace"]
    monkeypatch.setattr(records, "PAGE_SIZE", 1)
    client = signed_in(team["owner"])
    base = f"/app/{ws.pk}/{path.split('?')[0]}"
    query = "range=custom&from=2026-03-01&to=2026-03-31" + (
        "&" + path.split("?")[1] if "?" in path else ""
    )
    forward, backward, pages = page_through(
        client, base, f"{base}?{query}", django_assert_max_num_queries
    )
    assert pages == [shows_rows(n, n, rows) for n in range(1, rows + 1)]
    assert backward == forward and len(set(forward)) == rows


def test_a_leads_journey_exports_its_events(team, figures_data):
    lead = Lead.objects.get(workspace=team["workspace"], name="Sally Sale")
    client = signed_in(team["owner"])
    html = client.get(f"/app/leads/{lead.pk}").content.decode()
    assert '<a href="?export=csv" id="export-csv" download>Export CSV</a>' in html
    rows = csv_of(client.get(f"/app/leads/{lead.pk}", {"export": "csv"}))
    assert rows[0] == ["When", "When (UTC, ISO 8601)", "Event", "Event type", "Detail"]
    assert [row[3] for row in rows[1:]] == [
        "lead.created",
        "funnel.stage",
        "funnel.stage",
        "sale",
        "payment",
        "payment",
        "refund",
    ]
    assert rows[1][:3] == ["1 Mar 2026, 09:00:00", "2026-03-01T08:00:00Z", "Lead created"]
    assert rows[4][4] == "$4,000.00 closed by Closer Person"
    assert (
        signed_in(team["closer"]).get(f"/app/leads/{lead.pk}", {"export": "csv"}).status_code == 404
    )


def test_an_attribution_rows_numbers_open_the_leads_they_count(team, figures_data):
    ws = team["workspace"]
    client = signed_in(team["owner"])
    overview = client.get(f"/app/{ws.pk}/", MARCH).content.decode()
    table = re.search(r'<table id="attribution-table">.*?</table>', overview, re.S).group(0)
    untagged = next(
        row
        for row in re.findall(r'<tr class="attribution-row">(.*?)</tr>', table, re.S)
        if "(none) / (none) / (none) / (none)" in row
    )
    numbers = re.findall(
        r'<td><a href="([^"]+)" class="figure-link"><span class="figure"[^>]*>([^<]*)</span>',
        untagged,
    )
    # Leads, closes and cash are links; the close rate is a rate of two of them.
    leads_link, closes_link, cash_link = (unescape(url) for url, _ in numbers)
    assert [text for _, text in numbers] == ["3", "2", "$3,000.00"]
    query = "range=custom&from=2026-03-01&to=2026-03-31" + "".join(
        f"&utm_{name}=%28none%29" for name in ("source", "medium", "campaign", "content")
    )
    assert leads_link == f"/app/{ws.pk}/leads/?{query}"
    assert closes_link == cash_link == f"/app/{ws.pk}/leads/?{query}&sold=1"
    assert total(client.get(leads_link).content.decode()) == 3
    sold = client.get(closes_link).content.decode()
    assert "Leads created with a sale" in sold
    assert total(sold) == 2
    # Each lead's cash to date, which adds up to the row's cash collected.
    cash = [row[-1] for row in table_rows(sold)]
    assert sorted(cash) == ["$1,000.00", "$2,000.00"]


def test_the_commission_csv_writes_words_and_times_to_the_second(team, figures_data):
    """The rule as the page writes it ("cash collected", "closer"), and a time's seconds
    (the machine's UTC column beside it as before)."""
    ws = team["workspace"]
    client = signed_in(team["owner"])
    rows = csv_of(client.get(f"/app/{ws.pk}/tables/commission/", MARCH))
    assert rows[0][3:6] == ["Rule: basis", "Rule: slot", "Rule: rate (fraction)"]
    closer = next(row for row in rows[1:] if row[0] == "Closer Person")
    assert closer[3:6] == ["cash collected", "closer", "0.1"]
    sally = Lead.objects.get(workspace=ws, name="Sally Sale")
    Records(ws).touch(sally, "2026-03-01 08:30:07", member=team["setter"])
    leads = csv_of(client.get(f"/app/{ws.pk}/leads/", {**MARCH, "export": "csv", "q": "Sally"}))
    # 08:30:07 UTC is 09:30:07 in Berlin.
    assert leads[1][6:8] == ["1 Mar 2026, 09:30:07", "2026-03-01T08:30:07Z"]


def test_the_leads_never_contacted_open_longest_waiting_first(team, figures_data):
    ws = team["workspace"]
    client = signed_in(team["owner"])
    overview = client.get(f"/app/{ws.pk}/", MARCH).content.decode()
    url = link(overview, "list-never-contacted")
    assert url == (
        f"/app/{ws.pk}/leads/?range=custom&from=2026-03-01&to=2026-03-31"
        "&waiting=1&sort=created&dir=asc"
    )
    waiting = client.get(url).content.decode()
    assert re.search(r'<span id="records-order">([^<]*)</span>', waiting).group(1) == (
        "Oldest first."
    )
    created = [
        lead.created_at
        for lead in Lead.objects.filter(pk__in=listed(waiting)).order_by("created_at")
    ]
    shown_in_order = [Lead.objects.get(pk=pk).created_at for pk in listed(waiting)]
    assert shown_in_order == created
    assert len(created) == total(waiting) == 8
