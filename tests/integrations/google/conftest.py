"""Google Ads' REST interface replayed with respx: the OAuth token endpoint and
searchStream answer Google's recorded answers (the files in recorded/), at the settings
GOOGLE_OAUTH_TOKEN_URL and GOOGLE_ADS_API_BASE."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import httpx
import pytest
import respx

from audit.services import SYSTEM
from integrations import backfills as engine_backfills
from integrations import services
from integrations.google import client as google_client

RECORDED = Path(__file__).parent / "recorded"
BASE = "http://google-ads.test"
TOKEN_URL = "http://oauth2.google.test/token"
STREAM = f"{BASE}/v21/customers/1234567890/googleAds:searchStream"
CREDENTIALS = {
    "developer_token": "aBcDeFgHiJkLmNoPqRsTuV",
    "client_id": "123456789012-abcdefghijklmnop.apps.googleusercontent.com",
    "client_secret": "GOCSPX-abcdefghijklmnopqrstuvwx",
    "refresh_token": "1//0gAbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
    "customer_id": "123-456-7890",
    "login_customer_id": "987-654-3210",
}


def recorded(name: str):
    return json.loads((RECORDED / f"{name}.json").read_text())


class Google:
    """Queued answers for the token endpoint and for each GAQL query's resource (the
    word after FROM): each call takes the next one, the last stays."""

    def __init__(self, router: respx.Router):
        self.tokens: list = []
        self.streams: dict[str, list] = {}
        self.queries: list[str] = []
        self.headers: list[dict] = []
        router.post(TOKEN_URL).mock(side_effect=self._token)
        router.post(STREAM).mock(side_effect=self._stream)

    @staticmethod
    def _next(queue):
        return queue.pop(0) if len(queue) > 1 else queue[0]

    def token(self, *answers):
        self.tokens.extend(a if isinstance(a, tuple) else (200, a) for a in answers)

    def stream(self, resource: str, *answers):
        self.streams.setdefault(resource, []).extend(
            a if isinstance(a, tuple) else (200, a) for a in answers
        )

    def _token(self, request):
        status, name = self._next(self.tokens)
        return httpx.Response(status, json=recorded(name))

    def _stream(self, request):
        query = json.loads(request.content)["query"]
        self.queries.append(query)
        self.headers.append(dict(request.headers))
        resource = query.split(" FROM ")[1].split()[0]
        status, name = self._next(self.streams[resource])
        return httpx.Response(status, json=recorded(name))


@pytest.fixture
def google(settings):
    settings.GOOGLE_ADS_API_BASE = BASE
    settings.GOOGLE_ADS_API_VERSION = "v21"
    settings.GOOGLE_OAUTH_TOKEN_URL = TOKEN_URL
    with respx.mock(assert_all_called=False) as router:
        yield Google(router)


@pytest.fixture
def waits(monkeypatch):
    slept = []
    monkeypatch.setattr(google_client, "_sleep", slept.append)
    return slept


@pytest.fixture
def today(monkeypatch):
    day = date(2026, 3, 10)
    monkeypatch.setattr(engine_backfills, "backfills_day", lambda: day)
    return day


@pytest.fixture
def google_connection(make_workspace, backfills):
    def make(currency: str = "USD"):
        return services.connection_create(
            workspace=make_workspace(currency=currency),
            provider="google",
            credentials=CREDENTIALS,
            actor=SYSTEM,
        )

    return make
