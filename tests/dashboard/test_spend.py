"""Spend in the app: with ad spend recorded, the overview shows spend, cost per close and
ROAS beside cash collected (from /acquisition), the attribution table its spend and cost per
lead, and the Acquisition page /acquisition's rows with a chart; each opens its spend
records. Without spend none of it shows."""

import csv
import io
import json
import re
from datetime import date
from html import unescape

import pytest

from tests.figures.conftest import Records
from workspaces.services import ad_spend_upsert

from .conftest import MARCH, check_against_api, shown_figures, signed_in

pytestmark = pytest.mark.django_db


def spend(ws, external_id, day, amount, **extra):
    record, _ = ad_spend_upsert(
        workspace=ws,
        external_id=external_id,
        date=date.fromisoformat(day),
        platform=extra.pop("platform", "meta"),
        amount=amount,
        **extra,
    )
    return record


@pytest.fixture
def with_spend(team, figures_data):
    """March's spend: google 400.00 + 200.00, facebook 100.00; February's: google 300.00."""
    ws = team["workspace"]
    spend(
        ws,
        "g-1",
        "2026-03-03",
        40000,
        platform="google",
        utm_source="google",
        campaign_name="Brand",
    )
    spend(
        ws,
        "g-2",
        "2026-03-20",
        20000,
        platform="google",
        utm_source="google",
        campaign_name="Brand",
        impressions=1200,
        clicks=34,
    )
    spend(ws, "f-1", "2026-03-05", 10000, utm_source="facebook", campaign_name="Spring")
    spend(ws, "g-0", "2026-02-10", 30000, platform="google", utm_source="google")
    return figures_data


def tile(html: str, metric: str) -> str:
    found = re.search(rf'id="tile-{metric}".*?</article>', html, re.S)
    assert found, metric
    return found.group(0)


def text_of(fragment: str, css_class: str) -> str:
    found = re.search(rf'<[a-z]+ class="{css_class}"[^>]*>(.*?)</[a-z]+>', fragment, re.S)
    return unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip()


def test_the_spend_tiles_show_beside_cash_with_their_change(team, with_spend):
    ws = team["workspace"]
    html = signed_in(team["owner"]).get(f"/app/{ws.pk}/", MARCH).content.decode()
    order = re.findall(r'<article class="tile[^"]*" id="tile-([^"]+)"', html)
    assert order[:5] == [
        "paymentscash_collected",
        "acquisitionspend",
        "acquisitioncost_per_close",
        "acquisitionroas",
        "paymentsrevenue_booked",
    ]
    spent = tile(html, "acquisitionspend")
    assert text_of(spent, "figure") == "$700.00"
    # February: 300.00 (the period before the 31 days of March starts on 29 January).
    assert text_of(spent, "delta") == "+$400.00 (+133.3%)"
    # The tiles read what the ads bought: no lead of google or facebook (the sources with
    # spend, none of it naming a utm_campaign) has a sale, so no close was paid for.
    per_close = tile(html, "acquisitioncost_per_close")
    big = re.search(r'<p class="big">(.*?)</p>', per_close, re.S).group(1)
    assert 'class="figure null"' in big
    assert text_of(big, "why") == "No closes."
    assert "<h3>Cost per close, paid</h3>" in per_close
    assert "No change to show" in per_close
    # Blended, named so: two leads of March have a sale (Sally; February's sale's lead,
    # created in March), against all of the spend.
    assert text_of(per_close, "muted blended") == "Blended: $350.00"
    assert "(every lead and its cash against all the spend)" in per_close
    assert "the leads created in the period from the campaigns with spend" in per_close
    roas = tile(html, "acquisitionroas")
    assert "<h3>Return on ad spend, paid</h3>" in roas
    assert text_of(roas, "figure") == "0.0\u00d7"
    assert text_of(roas, "delta") == "\u00b10.0\u00d7"
    # Blended: their cash to date, 2,000.00 + 1,000.00, against 700.00. A return as people
    # write it: a multiple, its sides on hover.
    assert text_of(roas, "muted blended").startswith("Blended: 4.3\u00d7")
    assert 'title="4.3\u00d7 = Cash collected 3,000 / Ad spend 700 (a fraction of 4.2857)"' in roas
    # The number itself opens the spend records of the period.
    assert (
        f'<a href="/app/{ws.pk}/spend/?range=custom&amp;from=2026-03-01&amp;to=2026-03-31" '
        'id="list-acquisitionspend" class="figure-link"'
    ) in spent


def test_the_paid_tiles_count_the_closes_of_the_campaigns_with_spend(team, with_spend):
    ws = team["workspace"]
    rec = Records(ws)
    tz = "Europe/Berlin"
    bought = rec.lead("2026-03-06 09:00", tz=tz, name="Paid Pat", utm_source="facebook")
    sale = rec.sale(50000, "2026-03-09 11:00", tz=tz, lead=bought, closer=team["closer"])
    rec.payment(sale, 50000, "2026-03-09 11:05", tz=tz)
    html = signed_in(team["owner"]).get(f"/app/{ws.pk}/", MARCH).content.decode()
    per_close = tile(html, "acquisitioncost_per_close")
    # One close of the campaigns with spend against the 700.00 they spent.
    assert text_of(per_close, "figure") == "$700.00"
    # Blended: three closes of March's leads against the same 700.00.
    assert text_of(per_close, "muted blended").startswith("Blended: $233.33")
    roas = tile(html, "acquisitionroas")
    # 500.00 of cash against 700.00; blended 3,500.00 against 700.00.
    assert text_of(roas, "figure") == "0.7\u00d7"
    assert 'title="0.7\u00d7 = Cash collected 500 / Ad spend 700 (a fraction of 0.7143)"' in roas
    assert text_of(roas, "muted blended").startswith("Blended: 5.0\u00d7")


def test_the_spend_figures_are_the_acquisition_apis(team, with_spend, api, workspace_token):
    ws = team["workspace"]
    client = signed_in(team["owner"])
    html = client.get(f"/app/{ws.pk}/", MARCH).content.decode()
    figures = [f for f in shown_figures(html) if f["data-metric"].startswith("acquisition.")]
    reader = api(workspace_token(ws))
    checked = check_against_api(figures, lambda url: reader.get(unescape(url)))
    # 3 tiles (and 3 previous), the blended figure of 2 of them, and spend and cost per
    # lead of the 2 attribution rows with spend (the third has none in the period).
    assert checked == 6 + 2 + 4


def test_the_attribution_table_gains_spend_and_cost_per_lead(team, with_spend):
    ws = team["workspace"]
    html = signed_in(team["owner"]).get(f"/app/{ws.pk}/", MARCH).content.decode()
    table = re.search(r'<table id="attribution-table">.*?</table>', html, re.S).group(0)
    assert '<th scope="col">Ad spend</th><th scope="col">Cost per lead</th>' in table
    rows = re.findall(r'<tr class="attribution-row">(.*?)</tr>', table, re.S)
    cells = [
        [
            unescape(re.sub(r"<[^>]+>", "", cell)).strip()
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        ]
        for row in rows
    ]
    assert [row[0].split(" / ")[0] for row in cells] == ["google", "(none)", "facebook"]
    # google: 600.00 over 4 leads; no source: no spend, so no cost (never 0.00);
    # facebook: 100.00 over 1.
    assert [row[5:] for row in cells] == [
        ["$600.00", "$150.00"],
        ["none", "\u2014"],
        ["$100.00", "$100.00"],
    ]


def test_the_acquisition_page_lists_the_apis_rows_and_opens_their_spend(
    team, with_spend, api, workspace_token
):
    ws = team["workspace"]
    client = signed_in(team["owner"])
    html = client.get(f"/app/{ws.pk}/acquisition/", MARCH).content.decode()
    assert 'id="nav-acquisition"' in html
    answer = api(workspace_token(ws)).get("/api/v1/acquisition?from=2026-03-01&to=2026-03-31")
    api_rows = answer.json()["data"]["rows"]
    labels = re.findall(r'class="row-spend">([^<]+)</a>', html)
    assert (
        [unescape(label) for label in labels]
        == [f"{row['utm_source']} / {row['utm_campaign']}" for row in api_rows]
        == ["google / (none)", "facebook / (none)", "(none) / (none)"]
    )
    # Paid beside blended: each of the page's cells is the answer's value at its path.
    data = answer.json()["data"]
    for part in ("paid", "total"):
        row = re.search(rf'<tr id="acquisition-{part}">(.*?)</tr>', html, re.S).group(1)
        shown = dict(
            re.findall(r'data-path="data\.' + part + r'\.(\w+)" data-value="([^"]*)"', row)
        )
        assert shown == {key: json.dumps(data[part][key]["value"]) for key in shown}
        assert len(shown) >= 5
    assert ">Paid</th>" in html and ">Total (blended)</th>" in html
    # The leads that came on their own cost nothing: their row says "no spend" where a
    # cost or a return would be, and shows its counts and cash.
    own = re.search(
        r'<tr class="acquisition-row">(?:(?!</tr>).)*?\(none\) / \(none\).*?</tr>', html, re.S
    )
    cells = [
        unescape(re.sub(r"<[^>]+>", "", cell)).strip()
        for cell in re.findall(r"<td[^>]*>(.*?)</td>", own.group(0), re.S)
    ]
    assert cells == [
        "$0.00",
        "3",
        "1",
        "0",
        "2",
        "$3,000.00",
        "no spend",
        "no spend",
        "no spend",
        "no spend",
        "no spend",
    ]
    google = unescape(re.search(r'<a href="([^"]+)" class="row-spend">google', html).group(1))
    listed = client.get(google).content.decode()
    assert re.search(r'data-total="(\d+)"', listed).group(1) == "2"
    rows = list(
        csv.reader(
            io.StringIO(
                b"".join(client.get(google + "&export=csv").streaming_content).decode("utf-8-sig")
            )
        )
    )
    assert rows[0] == [
        "Day",
        "Day (ISO 8601)",
        "Platform",
        "Source",
        "Campaign",
        "Campaign name",
        "Spend",
        "Spend (minor units)",
        "Spend (currency)",
        "Impressions",
        "Impressions (number)",
        "Clicks",
        "Clicks (number)",
    ]
    # Newest first, as the list shows them.
    assert rows[1:] == [
        [
            "20 Mar 2026",
            "2026-03-20",
            "google",
            "google",
            "(none)",
            "Brand",
            "$200.00",
            "20000",
            "USD",
            "1,200",
            "1200",
            "34",
            "34",
        ],
        [
            "3 Mar 2026",
            "2026-03-03",
            "google",
            "google",
            "(none)",
            "Brand",
            "$400.00",
            "40000",
            "USD",
            "—",
            "",
            "—",
            "",
        ],
    ]
    chart = re.search(r'<table class="series" id="spend-chart-table">.*?</table>', html, re.S)
    assert chart.group(0).count("<tr>") == 1 + 31
    assert "Ad spend and cash collected per day" in html


def test_the_spend_csv_is_the_ad_spend_apis_records(team, with_spend, api, workspace_token):
    ws = team["workspace"]
    client = signed_in(team["owner"])
    rows = list(
        csv.reader(
            io.StringIO(
                b"".join(
                    client.get(f"/app/{ws.pk}/spend/", {**MARCH, "export": "csv"}).streaming_content
                ).decode()
            )
        )
    )
    answer = api(workspace_token(ws)).get("/api/v1/ad-spend?from=2026-03-01&to=2026-03-31")
    records = answer.json()["data"]["records"]
    assert (
        [(row[1], row[2], int(row[7])) for row in rows[1:]]
        == [
            (record["date"], record["platform"], round(record["amount"] * 100))
            # The API's oldest first; the list's newest first.
            for record in reversed(records)
        ]
        == [
            ("2026-03-20", "google", 20000),
            ("2026-03-05", "meta", 10000),
            ("2026-03-03", "google", 40000),
        ]
    )
    exported = list(
        csv.reader(
            io.StringIO(
                b"".join(
                    client.get(f"/app/{ws.pk}/tables/acquisition/", MARCH).streaming_content
                ).decode()
            )
        )
    )
    assert exported[1][:5] == ["google", "(none)", "$600.00", "60000", "USD"]


def test_without_spend_nothing_of_it_shows(team, figures_data):
    ws = team["workspace"]
    client = signed_in(team["owner"])
    html = client.get(f"/app/{ws.pk}/", MARCH).content.decode()
    assert 'id="tile-acquisitionspend"' not in html
    assert "acquisition." not in html
    assert "Ad spend" not in html
    assert 'id="nav-acquisition"' not in html
    page = client.get(f"/app/{ws.pk}/acquisition/", MARCH).content.decode()
    assert "No ad spend recorded" in page
    assert 'data-metric="acquisition.' not in page
    assert client.get(f"/app/{ws.pk}/tables/acquisition/", MARCH).status_code == 404


def test_the_header_offers_acquisition_to_those_who_may_open_it(team, with_spend):
    ws = team["workspace"]
    board = signed_in(team["manager"]).get(f"/app/{ws.pk}/board/", MARCH).content.decode()
    assert f'href="/app/{ws.pk}/acquisition/"' in board
    closer = signed_in(team["closer"]).get(f"/app/{ws.pk}/board/", MARCH).content.decode()
    assert "/acquisition/" not in closer


def test_the_spend_chart_exports_its_days(team, with_spend):
    ws = team["workspace"]
    response = signed_in(team["owner"]).get(f"/app/{ws.pk}/tables/spend-chart/", MARCH)
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))
    assert rows[0] == [
        "Period",
        "From (ISO 8601)",
        "To (ISO 8601)",
        "Ad spend",
        "Ad spend (minor units)",
        "Ad spend (currency)",
        "Cash collected",
        "Cash collected (minor units)",
        "Cash collected (currency)",
    ]
    assert len(rows) == 1 + 31
    # 2 March: Sally's first payment; 3 March: google's 400.00.
    assert rows[2] == [
        "2 Mar 2026",
        "2026-03-02",
        "2026-03-02",
        "$0.00",
        "0",
        "USD",
        "$1,500.00",
        "150000",
        "USD",
    ]
    assert rows[3][3:6] == ["$400.00", "40000", "USD"]


def _csv_lines(response) -> list[str]:
    assert response.status_code == 200
    return b"".join(response.streaming_content).decode("utf-8-sig").splitlines()


def test_the_attribution_csv_carries_the_pages_spend_and_cost_per_lead(team, with_spend):
    ws = team["workspace"]
    lines = _csv_lines(signed_in(team["owner"]).get(f"/app/{ws.pk}/tables/attribution/", MARCH))
    assert lines[0].endswith(
        ",Ad spend,Ad spend (minor units),Ad spend (currency),"
        "Cost per lead,Cost per lead (minor units),Cost per lead (currency)"
    )
    # google: 600.00 over 4 leads; no source: no spend, so no cost; facebook: 100.00
    # over 1.
    rows = list(csv.reader(lines[1:]))
    assert [row[0] for row in rows] == ["google", "(none)", "facebook"]
    assert [row[13:] for row in rows] == [
        ["$600.00", "60000", "USD", "$150.00", "15000", "USD"],
        ["none", "", "", "\u2014", "", ""],
        ["$100.00", "10000", "USD", "$100.00", "10000", "USD"],
    ]
    assert lines[3] == (
        "facebook,paid,(none),(none),1,1,0,0,$0.00,0,USD,0.0%,0.0,"
        "$100.00,10000,USD,$100.00,10000,USD"
    )


def test_rows_sharing_a_source_and_campaign_say_so_in_the_csv(team, with_spend):
    """Spend is recorded per source and campaign: google's two mediums cannot split it."""
    ws = team["workspace"]
    Records(ws).lead("2026-03-06 09:00", utm_source="google", utm_medium="cpc")
    lines = _csv_lines(signed_in(team["owner"]).get(f"/app/{ws.pk}/tables/attribution/", MARCH))
    shared = "shared by the rows of this source and campaign"
    google = [row for row in csv.reader(lines[1:]) if row[0] == "google"]
    assert [row[1] for row in google] == ["(none)", "cpc"]
    assert [row[13:] for row in google] == [[shared, "", "", shared, "", ""]] * 2
