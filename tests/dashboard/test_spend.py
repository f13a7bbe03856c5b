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
    # Two leads of March have a sale (Sally; February's sale's lead, created in March).
    per_close = tile(html, "acquisitioncost_per_close")
    assert text_of(per_close, "figure") == "$350.00"
    # No lead created in the period before has a sale: no cost per close then.
    assert "No change to show" in per_close
    roas = tile(html, "acquisitionroas")
    # Their cash to date: 2,000.00 + 1,000.00 against 700.00; before, 0.00 against 300.00.
    # A return as people write it: a multiple, its change in multiples, its sides on hover.
    assert text_of(roas, "figure") == "4.3\u00d7"
    assert text_of(roas, "delta") == "+4.3\u00d7"
    assert 'title="4.3\u00d7 = Cash collected 3,000 / Ad spend 700 (a fraction of 4.2857)"' in roas
    assert f'href="/app/{ws.pk}/spend/?range=custom&amp;from=2026-03-01&amp;to=2026-03-31"' in spent


def test_the_spend_figures_are_the_acquisition_apis(team, with_spend, api, workspace_token):
    ws = team["workspace"]
    client = signed_in(team["owner"])
    html = client.get(f"/app/{ws.pk}/", MARCH).content.decode()
    figures = [f for f in shown_figures(html) if f["data-metric"].startswith("acquisition.")]
    reader = api(workspace_token(ws))
    checked = check_against_api(figures, lambda url: reader.get(unescape(url)))
    # 3 tiles (and 3 previous), and spend and cost per lead of the 3 attribution rows.
    assert checked == 6 + 6


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
    # google: 600.00 over 4 leads; no source: no spend over 3; facebook: 100.00 over 1.
    assert [row[5:] for row in cells] == [
        ["$600.00", "$150.00"],
        ["$0.00", "$0.00"],
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
