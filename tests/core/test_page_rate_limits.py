"""The app's pages are counted like the API: a signed-in person by their account (reads
and writes apart), anyone else by their client address; over the rate, 429."""

import pytest
from django.test import Client

from core import pages

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def limits(settings, monkeypatch, own_minute):
    settings.RATE_LIMIT_READ = "3/min"
    settings.RATE_LIMIT_WRITE = "2/min"
    settings.RATE_LIMIT_ANON = "2/min"
    monkeypatch.setattr(pages, "page_clock", lambda: own_minute)


def test_a_signed_in_person_gets_their_read_rate_then_429(make_workspace, make_member):
    ws = make_workspace()
    closer, other = make_member(ws, "closer"), make_member(ws, "setter")
    client = Client()
    client.force_login(closer.user)
    board = f"/app/{ws.pk}/board/"
    answers = [client.get(board) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[0]["RateLimit-Policy"] == '"read";q=3;w=60'
    assert answers[2]["RateLimit"] == '"read";r=0;t=45'
    refused = answers[3]
    assert refused["Retry-After"] == "45"
    assert "Wait 45 seconds, then try again." in refused.content.decode()
    # Another person's count is their own.
    second = Client()
    second.force_login(other.user)
    assert second.get(board).status_code == 200


def test_pages_without_an_account_count_per_address():
    answers = [Client().get("/accounts/login/", REMOTE_ADDR="10.9.8.7") for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert Client().get("/accounts/login/", REMOTE_ADDR="10.9.8.8").status_code == 200


def test_the_api_is_not_counted_twice(make_workspace, workspace_token):
    ws = make_workspace()
    token = workspace_token(ws)
    client = Client()
    answers = [client.get("/api/v1/whoami", HTTP_AUTHORIZATION=f"Bearer {token}") for _ in range(3)]
    # The API's own throttle counts these (with its own clock), the pages' counter not.
    assert all(a["RateLimit-Policy"] == '"read";q=3;w=60' for a in answers)
