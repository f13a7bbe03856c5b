"""Forms filed at the same moment by several requests (PostgreSQL: real concurrency)."""

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.conftest import at_once
from workspaces.models import EodReport, Lead, Outcome

from .conftest import new_key

pytestmark = pytest.mark.postgres


def _together(count, send):
    """Run send(n) in count threads released at once; the answers, in any order."""

    def answer(n):
        response = send(n)
        return response.status_code, response.json()

    return at_once(count, answer)


def _client(token):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}", HTTP_IDEMPOTENCY_KEY=new_key())
    return client


def test_eod_filed_at_once_makes_one_report(transactional_db, team):
    session = team.sessions["sdr"]

    def send(n):
        return _client(session).post(
            "/api/v1/forms/eod",
            {"date": "2026-03-02", "fields": {"dials": n}},
            format="json",
        )

    answers = _together(10, send)
    assert sorted(status for status, _ in answers) == [200] * 9 + [201]
    report = EodReport.objects.get()
    assert report.date.isoformat() == "2026-03-02"
    assert len({answer["report"]["id"] for _, answer in answers}) == 1


def test_past_calls_naming_one_new_email_at_once_make_one_lead(transactional_db, team):
    session = team.sessions["closer"]
    occurred = (timezone.now() - timedelta(hours=1)).isoformat()

    def send(n):
        return _client(session).post(
            "/api/v1/forms/past-call",
            {
                "submission_id": str(uuid.uuid4()),
                "lead": {"name": "Sam", "email": "sam@example.test"},
                "occurred_at": occurred,
                "outcome": "follow_up",
            },
            format="json",
        )

    answers = _together(10, send)
    assert [status for status, _ in answers] == [201] * 10
    assert Lead.objects.count() == 1
    assert Outcome.objects.count() == 10
    assert sum(answer["lead"]["created"] for _, answer in answers) == 1
