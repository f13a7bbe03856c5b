"""The records behind a figure: each list holds exactly what its figure counts, newest
first, a page at a time, each row linking to the lead's journey."""

import base64
import json
import re
import uuid

import pytest

from dashboard import records
from workspaces.models import Lead

from .conftest import MARCH, signed_in

pytestmark = pytest.mark.django_db


def listed(html: str) -> list[str]:
    return re.findall(r'<tr class="record" data-id="([^"]+)">', html)


def total(html: str) -> int:
    return int(re.search(r'id="records-count" data-total="(\d+)"', html).group(1))


def test_a_headline_figure_opens_the_calls_it_counts(team, figures_data, api, workspace_token):
    ws = team["workspace"]
    client = signed_in(team["owner"])
    overview = client.get(f"/app/{ws.pk}/", MARCH).content.decode()
    link = re.search(r'<a href="([^"]+)" id="list-callstaken"', overview).group(1)
    assert link == (
        f"/app/{ws.pk}/calls/?range=custom&amp;from=2026-03-01&amp;to=2026-03-31&amp;figure=taken"
    )
    html = client.get(link.replace("&amp;", "&")).content.decode()
    taken = api(workspace_token(ws)).get("/api/v1/calls?from=2026-03-01&to=2026-03-31")
    assert total(html) == taken.json()["data"]["taken"]["value"] == 3
    assert len(listed(html)) == 3
    leads = re.findall(r'<a href="/app/leads/([^"]+)" class="lead-link">', html)
    assert len(leads) == 3


def test_the_calls_awaiting_an_outcome_and_a_members_calls(team, figures_data):
    ws = team["workspace"]
    client = signed_in(team["owner"])
    html = client.get(f"/app/{ws.pk}/calls/", {**MARCH, "figure": "awaiting_outcome"})
    html = html.content.decode()
    assert total(html) == 1
    assert "10 Mar 2026, 12:00" in html  # in Berlin time, as the factory scheduled it
    closer = team["closer"]
    html = client.get(
        f"/app/{ws.pk}/calls/", {**MARCH, "figure": "booked", "member": str(closer.pk)}
    ).content.decode()
    # 2, 3 (twice) and 29 March: the closer's; the call of 10 March has no closer.
    assert total(html) == 4
    assert "Calls booked with Closer Person" in html


def test_a_sources_leads_and_the_leads_never_contacted(team, figures_data, api, workspace_token):
    ws = team["workspace"]
    client = signed_in(team["owner"])
    created = api(workspace_token(ws)).get("/api/v1/leads?from=2026-03-01&to=2026-03-31&limit=1")
    assert created.json()["data"]["created"]["value"] == 8
    html = client.get(f"/app/{ws.pk}/leads/", MARCH).content.decode()
    assert total(html) == 8
    overview = client.get(f"/app/{ws.pk}/", MARCH).content.decode()
    google = re.search(r'<a href="([^"]+)" class="source-leads">google /', overview).group(1)
    html = client.get(google.replace("&amp;", "&")).content.decode()
    assert total(html) == 4
    assert "Leads created from google / (none) / (none) / (none)" in html
    Lead.objects.filter(workspace=ws, name="Sally Sale").update(
        first_contact_at="2026-03-01T10:00:00Z"
    )
    html = client.get(f"/app/{ws.pk}/leads/", {**MARCH, "waiting": "1"}).content.decode()
    assert total(html) == 7  # the 8 leads of March but Sally, contacted
    assert "Sally Sale" not in html


def test_pages_follow_a_cursor_newest_first_in_a_fixed_number_of_queries(
    team, figures_data, monkeypatch, django_assert_max_num_queries
):
    ws = team["workspace"]
    monkeypatch.setattr(records, "PAGE_SIZE", 4)
    client = signed_in(team["owner"])
    seen = []
    url, params = f"/app/{ws.pk}/leads/", MARCH
    pages = 0
    while url:
        with django_assert_max_num_queries(12):
            html = client.get(url, params).content.decode()
        pages += 1
        seen += listed(html)
        found = re.search(r'<a href="\?([^"]+)" id="next-page">', html)
        url, params = (
            (f"/app/{ws.pk}/leads/?{found.group(1).replace('&amp;', '&')}", None)
            if found
            else (None, None)
        )
    expected = list(
        Lead.objects.filter(workspace=ws, created_at__year=2026, created_at__month=3)
        .order_by("-created_at", "-pk")
        .values_list("pk", flat=True)
    )
    assert pages == 2
    assert seen == [str(pk) for pk in expected]
    assert len(seen) == 8  # the calls' leads, Sally, the facebook lead, the awaiting call's


def test_a_closer_cannot_open_the_lists(team, figures_data):
    ws = team["workspace"]
    client = signed_in(team["closer"])
    for path in ("calls", "leads"):
        answer = client.get(f"/app/{ws.pk}/{path}/", MARCH)
        assert answer.status_code == 403
        assert "Only an owner, admin or manager of" in answer.content.decode()


def test_a_cursor_that_cannot_be_read_is_the_first_page(team, figures_data):
    ws = team["workspace"]
    html = (
        signed_in(team["owner"])
        .get(f"/app/{ws.pk}/leads/", {**MARCH, "cursor": "not-a-cursor"})
        .content.decode()
    )
    assert len(listed(html)) == 8


@pytest.mark.parametrize(
    "moment", ["9999-12-31T23:30:00-05:00", "0001-01-01T00:30:00+01:00", "2026-03-01T00:00:00"]
)
def test_a_cursor_naming_a_time_the_service_cannot_hold_is_the_first_page(
    team, figures_data, moment
):
    ws = team["workspace"]
    # A cursor of the default order (created, newest first), as the pages write it.
    raw = json.dumps(["created", "desc", moment, str(uuid.uuid4())])
    cursor = base64.urlsafe_b64encode(raw.encode()).decode()
    response = signed_in(team["owner"]).get(f"/app/{ws.pk}/leads/", {**MARCH, "cursor": cursor})
    assert response.status_code == 200
    assert len(listed(response.content.decode())) == 8
