"""The clients: every operation of both API descriptions as a method, with retries,
Idempotency-Keys, typed errors and iterators that page.

The methods themselves are generated (`_generated.Operations`, one per operation id, in
snake case); this module sends what they build and reads what comes back.
"""

from __future__ import annotations

import asyncio
import datetime
import os
import random
import time
import uuid
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import Any

import httpx

from . import _generated
from ._version import __version__
from .errors import (
    ApiError,
    ConnectionFailed,
    IdempotencyInProgress,
    PagingError,
    RateLimited,
    Unavailable,
    UnexpectedAnswer,
    error_from_response,
    retry_after,
)

DEFAULT_BASE_URL = "http://127.0.0.1:8000"
USER_AGENT = f"salesfigures-python/{__version__}"

# The leads listed by one request at most, and the note that says a list was cut.
LEADS_PAGE = 500
EVENTS_PAGE = 500
AD_SPEND_PAGE = 500
_TRUNCATED = "truncated"


class _Parsing:
    """What the generated parsers read from a client."""

    raise_on_unexpected_status = False


class _Attempts:
    """When to retry one request, and after how long.

    Retried: 429 (after Retry-After, or the RateLimit field's reset), 503 (after Retry-After),
    a write whose key is still running (409 `refused.idempotency_in_progress`), and a
    connection that failed: always when it was never made, and once it was made only for a
    GET or a write that carries an Idempotency-Key (the service answers its retry with the
    first answer, so it is never applied twice).
    """

    def __init__(self, owner: _Base, method: str, keyed: bool):
        self.owner = owner
        self.safe = method.upper() in ("GET", "HEAD", "OPTIONS") or keyed
        self.keyed = keyed
        self.done = 0

    def _backoff(self) -> float:
        base = self.owner.backoff * (2 ** (self.done - 1))
        return min(base * (0.5 + random.random() / 2), self.owner.max_wait)

    def after_answer(self, response: httpx.Response) -> float | None:
        """Seconds to wait before the next try, or None to take this answer."""
        status = response.status_code
        if status not in (409, 429, 503):
            return None
        self.done += 1
        if self.done > self.owner.max_retries:
            return None
        if status == 409:
            if not self.keyed:
                return None
            error = error_from_response(response)
            return self._backoff() if isinstance(error, IdempotencyInProgress) else None
        told = retry_after(response.headers)
        wait = self._backoff() if told is None else told
        return wait if wait <= self.owner.max_wait else None

    def after_failure(self, error: httpx.TransportError) -> float:
        """Seconds to wait before the next try; raises ConnectionFailed when out of tries."""
        self.done += 1
        never_sent = isinstance(error, (httpx.ConnectError, httpx.ConnectTimeout))
        if self.done > self.owner.max_retries or not (self.safe or never_sent):
            raise ConnectionFailed(f"{type(error).__name__}: {error}") from error
        return self._backoff()


def _given(**arguments: Any) -> dict[str, Any]:
    """The arguments given; those left out take the operation's own defaults."""
    return {name: value for name, value in arguments.items() if value is not None}


def _query_list(values: str | Iterable[str] | None) -> str | None:
    if values is None or isinstance(values, str):
        return values
    return ",".join(values)


class _Base:
    _token_prefix: str | None = None
    _refused_prefix: str | None = None

    def __init__(
        self,
        token: str,
        *,
        base_url: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 4,
        backoff: float = 0.5,
        max_wait: float = 60.0,
        headers: dict[str, str] | None = None,
    ):
        if not token:
            raise ValueError("token is required: a workspace token (svc_…) or an agency one.")
        if self._token_prefix and not token.startswith(self._token_prefix):
            raise ValueError(
                f"{type(self).__name__} takes an agency token ({self._token_prefix}…)."
            )
        if self._refused_prefix and token.startswith(self._refused_prefix):
            raise ValueError(
                f"{type(self).__name__} takes a workspace or session token; "
                "use AgencyClient for an agency token."
            )
        self.base_url = (
            base_url or os.environ.get("SALESFIGURES_BASE_URL") or DEFAULT_BASE_URL
        ).rstrip("/")
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.max_wait = max_wait
        self._headers = {
            "Authorization": f"Bearer {token}",
            "Accept": "application/json",
            "User-Agent": USER_AGENT,
            **(headers or {}),
        }
        self._parsing = _Parsing()

    def _prepare(self, operation: Any, arguments: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        keyed = "idempotency_key" in arguments
        if keyed and arguments["idempotency_key"] is None:
            # One key per call, sent again on each of its retries.
            arguments = {**arguments, "idempotency_key": str(uuid.uuid4())}
        request = operation._get_kwargs(**arguments)
        return request, keyed

    def _read(self, operation: Any, response: httpx.Response) -> Any:
        if response.status_code >= 400:
            raise error_from_response(response)
        try:
            return operation._parse_response(client=self._parsing, response=response)
        except (ValueError, KeyError, TypeError) as error:
            raise UnexpectedAnswer(
                f"{response.request.method} {response.request.url.path} answered "
                f"{response.status_code} with a body the client cannot read: {error}"
            ) from error


class Client(_Base, _generated.Operations):
    """A workspace API token (`svc_…`) or a member's session token, on the figures API and
    the agent API. Every operation is a method named after its operation id in snake case:
    `client.list_payment_figures(from_=date(2026, 3, 1), to=date(2026, 3, 31))`.

    Errors raise the classes of `salesfigures.errors`. Reads are retried on 429, 503 and
    broken connections; writes carry an Idempotency-Key (a new one per call unless given)
    and are retried with the same key, so a write is applied once.
    """

    _refused_prefix = "agy_"

    def __init__(self, token: str, *, transport: httpx.BaseTransport | None = None, **kwargs):
        super().__init__(token, **kwargs)
        self._http = httpx.Client(
            base_url=self.base_url,
            headers=self._headers,
            timeout=self.timeout,
            transport=transport,
        )

    def close(self) -> None:
        self._http.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def _sleep(self, seconds: float) -> None:
        time.sleep(seconds)

    def _call(self, operation: Any, arguments: dict[str, Any]) -> Any:
        request, keyed = self._prepare(operation, arguments)
        attempts = _Attempts(self, request["method"], keyed)
        while True:
            try:
                response = self._http.request(**request)
            except httpx.TransportError as error:
                self._sleep(attempts.after_failure(error))
                continue
            wait = attempts.after_answer(response)
            if wait is None:
                return self._read(operation, response)
            self._sleep(wait)

    def iter_events(
        self,
        *,
        types: str | Iterable[str] | None = None,
        after: str | None = None,
        page_size: int = EVENTS_PAGE,
    ) -> Iterator[Any]:
        """The workspace's events of the last 30 days, oldest first, after the event id
        `after` (from the start when None), paging with `GET /api/v1/events` until the end.
        Keep the last event's id to carry on later from there."""
        while True:
            page = self.list_events(
                **_given(after=after, types=_query_list(types), limit=page_size)
            )
            yield from page.events
            if not page.has_more or not page.events:
                return
            after = page.events[-1].id

    def iter_leads(
        self,
        *,
        from_: datetime.date | None = None,
        to: datetime.date | None = None,
    ) -> Iterator[Any]:
        """Every lead created from `from_` to `to` (days in the workspace's time zone, both
        included; the service's default period when left out), newest first.

        One request when the period holds at most 500 leads; otherwise one per day, newest
        day first. A single day of more than 500 leads raises PagingError."""
        answer = self.list_leads(**_given(from_=from_, to=to, limit=LEADS_PAGE))
        if not _truncated(answer):
            yield from answer.data.leads
            return
        for day in _days_back(answer):
            page = self.list_leads(from_=day, to=day, limit=LEADS_PAGE)
            if _truncated(page):
                raise PagingError(f"More than {LEADS_PAGE} leads were created on {day}.")
            yield from page.data.leads

    def iter_ad_spend(
        self,
        *,
        from_: datetime.date | None = None,
        to: datetime.date | None = None,
    ) -> Iterator[Any]:
        """Every ad spend record dated from `from_` to `to` (days in the workspace's time
        zone, both included; the service's default period when left out), oldest day first.

        One request when the period holds at most 500 records; otherwise one per day,
        oldest day first. A single day of more than 500 records raises PagingError."""
        answer = self.list_ad_spend(**_given(from_=from_, to=to, limit=AD_SPEND_PAGE))
        if not _truncated(answer):
            yield from answer.data.records
            return
        for day in _days_forward(answer):
            page = self.list_ad_spend(from_=day, to=day, limit=AD_SPEND_PAGE)
            if _truncated(page):
                raise PagingError(f"More than {AD_SPEND_PAGE} ad spend records are dated {day}.")
            yield from page.data.records


class AgencyClient(Client):
    """An agency token (`agy_…`) on the agency API: the agency's workspaces, plans,
    blueprints, connect links, and its workspaces' display and change log."""

    _token_prefix = "agy_"
    _refused_prefix = None


class AsyncClient(_Base, _generated.AsyncOperations):
    """Client's methods as coroutines: `await client.list_payment_figures(...)`,
    `async for event in client.iter_events()`."""

    _refused_prefix = "agy_"

    def __init__(self, token: str, *, transport: httpx.AsyncBaseTransport | None = None, **kwargs):
        super().__init__(token, **kwargs)
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            headers=self._headers,
            timeout=self.timeout,
            transport=transport,
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        await self.aclose()

    async def _sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    async def _call(self, operation: Any, arguments: dict[str, Any]) -> Any:
        request, keyed = self._prepare(operation, arguments)
        attempts = _Attempts(self, request["method"], keyed)
        while True:
            try:
                response = await self._http.request(**request)
            except httpx.TransportError as error:
                await self._sleep(attempts.after_failure(error))
                continue
            wait = attempts.after_answer(response)
            if wait is None:
                return self._read(operation, response)
            await self._sleep(wait)

    async def iter_events(
        self,
        *,
        types: str | Iterable[str] | None = None,
        after: str | None = None,
        page_size: int = EVENTS_PAGE,
    ) -> AsyncIterator[Any]:
        """Client.iter_events, as an async iterator."""
        while True:
            page = await self.list_events(
                **_given(after=after, types=_query_list(types), limit=page_size)
            )
            for event in page.events:
                yield event
            if not page.has_more or not page.events:
                return
            after = page.events[-1].id

    async def iter_leads(
        self,
        *,
        from_: datetime.date | None = None,
        to: datetime.date | None = None,
    ) -> AsyncIterator[Any]:
        """Client.iter_leads, as an async iterator."""
        answer = await self.list_leads(**_given(from_=from_, to=to, limit=LEADS_PAGE))
        if not _truncated(answer):
            for lead in answer.data.leads:
                yield lead
            return
        for day in _days_back(answer):
            page = await self.list_leads(from_=day, to=day, limit=LEADS_PAGE)
            if _truncated(page):
                raise PagingError(f"More than {LEADS_PAGE} leads were created on {day}.")
            for lead in page.data.leads:
                yield lead

    async def iter_ad_spend(
        self,
        *,
        from_: datetime.date | None = None,
        to: datetime.date | None = None,
    ) -> AsyncIterator[Any]:
        """Client.iter_ad_spend, as an async iterator."""
        answer = await self.list_ad_spend(**_given(from_=from_, to=to, limit=AD_SPEND_PAGE))
        if not _truncated(answer):
            for record in answer.data.records:
                yield record
            return
        for day in _days_forward(answer):
            page = await self.list_ad_spend(from_=day, to=day, limit=AD_SPEND_PAGE)
            if _truncated(page):
                raise PagingError(f"More than {AD_SPEND_PAGE} ad spend records are dated {day}.")
            for record in page.data.records:
                yield record


class AsyncAgencyClient(AsyncClient):
    """AgencyClient's methods as coroutines."""

    _token_prefix = "agy_"
    _refused_prefix = None


def _truncated(answer: Any) -> bool:
    return any(note.code == _TRUNCATED for note in answer.notes)


def _days_back(answer: Any) -> Iterator[datetime.date]:
    period = answer.period
    first, last = period.from_, period.to
    day = last
    while day >= first:
        yield day
        day -= datetime.timedelta(days=1)


def _days_forward(answer: Any) -> Iterator[datetime.date]:
    period = answer.period
    day, last = period.from_, period.to
    while day <= last:
        yield day
        day += datetime.timedelta(days=1)


__all__ = [
    "DEFAULT_BASE_URL",
    "AgencyClient",
    "ApiError",
    "AsyncAgencyClient",
    "AsyncClient",
    "Client",
    "RateLimited",
    "Unavailable",
]
