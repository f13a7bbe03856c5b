"""The client's iterators that page, against answers made up by a mock transport."""

import asyncio
import datetime

import httpx
import pytest
import salesfigures
from salesfigures.errors import PagingError

WORKSPACE = {"id": "6aae3a4b-4aa8-44c4-a3b3-63f62b454838", "currency": "USD"}
SPEND = {
    "metric": "acquisition.spend",
    "label": "Ad spend",
    "unit": "money",
    "value": 12,
    "currency": "USD",
    "unavailable": None,
}
TRUNCATED = {"subject": "records", "code": "truncated", "reason": "500 of 501 listed."}


def _record(external_id, day):
    return {
        "id": external_id,
        "date": day,
        "platform": "meta",
        "utm_source": "facebook",
        "utm_medium": None,
        "utm_campaign": "spring",
        "utm_content": None,
        "campaign_id": None,
        "campaign_name": None,
        "impressions": None,
        "clicks": None,
        "currency": "USD",
        "amount": 4,
    }


def _page(first, last, records, *, cut=False):
    """An answer made anew for each request (a sync and an async client read its body
    each their own way)."""
    return lambda: httpx.Response(
        200,
        json={
            "workspace": WORKSPACE,
            "period": {"from": first, "to": last},
            "data": {"spend": SPEND, "records": records},
            "notes": [TRUNCATED] if cut else [],
        },
    )


class Pages:
    """Answers by the period asked for, recording the requests' query."""

    def __init__(self, answers):
        self.answers = answers
        self.queries = []

    def __call__(self, request):
        query = dict(request.url.params)
        self.queries.append(query)
        return self.answers[(query.get("from"), query.get("to"))]()


MARCH = {
    ("2026-03-01", "2026-03-03"): _page("2026-03-01", "2026-03-03", [], cut=True),
    ("2026-03-01", "2026-03-01"): _page("2026-03-01", "2026-03-01", [_record("a", "2026-03-01")]),
    ("2026-03-02", "2026-03-02"): _page("2026-03-02", "2026-03-02", []),
    ("2026-03-03", "2026-03-03"): _page(
        "2026-03-03", "2026-03-03", [_record("b", "2026-03-03"), _record("c", "2026-03-03")]
    ),
}


def _client(pages, cls=salesfigures.Client):
    return cls("svc_test", base_url="http://figures.test", transport=pages)


def test_one_request_when_the_period_is_not_cut():
    pages = Pages({(None, None): _page("2026-03-01", "2026-03-30", [_record("a", "2026-03-02")])})
    records = list(_client(httpx.MockTransport(pages)).iter_ad_spend())
    assert [r.id for r in records] == ["a"]
    assert pages.queries == [{"limit": "500"}]


def test_a_cut_period_is_read_day_by_day_oldest_first():
    pages = Pages(MARCH)
    client = _client(httpx.MockTransport(pages))
    records = client.iter_ad_spend(from_=datetime.date(2026, 3, 1), to=datetime.date(2026, 3, 3))
    assert [(r.id, r.date.isoformat()) for r in records] == [
        ("a", "2026-03-01"),
        ("b", "2026-03-03"),
        ("c", "2026-03-03"),
    ]
    assert [(q["from"], q["to"], q["limit"]) for q in pages.queries] == [
        ("2026-03-01", "2026-03-03", "500"),
        ("2026-03-01", "2026-03-01", "500"),
        ("2026-03-02", "2026-03-02", "500"),
        ("2026-03-03", "2026-03-03", "500"),
    ]


def test_a_day_of_more_than_a_page_raises():
    answers = {
        **MARCH,
        ("2026-03-02", "2026-03-02"): _page("2026-03-02", "2026-03-02", [], cut=True),
    }
    client = _client(httpx.MockTransport(Pages(answers)))
    records = client.iter_ad_spend(from_=datetime.date(2026, 3, 1), to=datetime.date(2026, 3, 3))
    assert next(records).id == "a"
    with pytest.raises(PagingError, match="2026-03-02"):
        next(records)


def test_the_async_iterator_reads_the_same():
    pages = Pages(MARCH)

    async def read():
        client = _client(httpx.MockTransport(pages), salesfigures.AsyncClient)
        try:
            return [
                r.id
                async for r in client.iter_ad_spend(
                    from_=datetime.date(2026, 3, 1), to=datetime.date(2026, 3, 3)
                )
            ]
        finally:
            await client.aclose()

    assert asyncio.run(read()) == ["a", "b", "c"]
