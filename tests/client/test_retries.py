"""The client's retries, against answers made up by a mock transport (no server, no waiting:
the waits are recorded instead of slept)."""

import asyncio

import httpx
import pytest
import salesfigures

WHOAMI = {
    "workspace": {"id": "6aae3a4b-4aa8-44c4-a3b3-63f62b454838"},
    "token": {"name": "Northwind read"},
    "access": "read-only",
}


def _error(status, reason, headers=None):
    body = {"error": {"reason": reason, "message": f"{reason} for a moment."}}
    return httpx.Response(status, json=body, headers=headers or {})


class Script:
    """Answers with the given answers in turn, recording the requests."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.requests = []

    def __call__(self, request):
        self.requests.append(request)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer


def _client(script, **kwargs):
    client = salesfigures.Client(
        "svc_test", base_url="http://figures.test", transport=httpx.MockTransport(script), **kwargs
    )
    client.waits = []
    client._sleep = client.waits.append
    return client


def test_429_waits_as_retry_after_says_then_answers():
    script = Script(
        _error(429, "rate_limited", {"Retry-After": "7", "RateLimit": '"read";r=0;t=7'}),
        httpx.Response(200, json=WHOAMI),
    )
    client = _client(script)
    client.whoami()
    assert client.waits == [7.0] and len(script.requests) == 2


def test_429_without_retry_after_reads_the_ratelimit_field():
    script = Script(
        _error(429, "rate_limited", {"RateLimit": '"read";r=0;t=12'}),
        httpx.Response(200, json=WHOAMI),
    )
    client = _client(script)
    client.whoami()
    assert client.waits == [12.0]


def test_429_longer_than_max_wait_is_raised_at_once():
    script = Script(_error(429, "rate_limited", {"Retry-After": "90"}))
    client = _client(script, max_wait=60)
    with pytest.raises(salesfigures.RateLimited) as limited:
        client.whoami()
    assert limited.value.retry_after == 90.0 and client.waits == []


def test_503_is_retried_then_raised_as_unavailable_when_retries_run_out():
    script = Script(*[_error(503, "unavailable", {"Retry-After": "5"})] * 3)
    client = _client(script, max_retries=2)
    with pytest.raises(salesfigures.Unavailable) as unavailable:
        client.whoami()
    assert unavailable.value.retry_after == 5.0
    assert client.waits == [5.0, 5.0] and len(script.requests) == 3


def test_a_500_is_a_server_error_and_not_retried():
    script = Script(_error(500, "server_error"))
    with pytest.raises(salesfigures.ServerError) as failed:
        _client(script).whoami()
    assert failed.value.status == 500 and len(script.requests) == 1


def test_a_broken_connection_is_retried_for_a_get():
    script = Script(httpx.ReadError("reset"), httpx.Response(200, json=WHOAMI))
    client = _client(script, backoff=0.5)
    client.whoami()
    assert len(script.requests) == 2 and len(client.waits) == 1 and 0.25 <= client.waits[0] <= 0.5


def test_a_write_without_an_idempotency_key_is_not_retried_once_sent():
    script = Script(httpx.ReadError("reset"))
    client = _client(script)
    with pytest.raises(salesfigures.ConnectionFailed):
        client.update_webhook_endpoint("wh_1", body={"description": "Renamed"})
    assert len(script.requests) == 1


def test_a_connection_never_made_is_retried_then_raised():
    script = Script(*[httpx.ConnectError("refused")] * 3)
    with pytest.raises(salesfigures.ConnectionFailed):
        _client(script, max_retries=2).whoami()
    assert len(script.requests) == 3


def test_a_keyed_write_in_progress_is_retried_with_its_key():
    created = {
        "id": "4255a989-d468-479b-94c1-509d3cf3d396",
        "url": "https://example.com/hooks",
        "events": [],
        "description": "",
        "enabled": True,
        "created_at": "2026-03-01T10:00:00Z",
        "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    }
    script = Script(
        _error(409, "refused.idempotency_in_progress"), httpx.Response(201, json=created)
    )
    client = _client(script)
    endpoint = client.create_webhook_endpoint(body={"url": "https://example.com/hooks"})
    assert endpoint.secret == created["secret"]
    keys = [r.headers["idempotency-key"] for r in script.requests]
    assert len(keys) == 2 and keys[0] == keys[1]


def test_an_answer_that_is_not_json_is_an_unexpected_answer():
    script = Script(httpx.Response(200, content=b"<html>proxy</html>"))
    with pytest.raises(salesfigures.UnexpectedAnswer):
        _client(script).whoami()


def test_the_async_client_retries_too():
    script = Script(
        _error(503, "unavailable", {"Retry-After": "1"}), httpx.Response(200, json=WHOAMI)
    )

    async def run():
        client = salesfigures.AsyncClient(
            "svc_test", base_url="http://figures.test", transport=httpx.MockTransport(script)
        )
        waits = []

        async def sleep(seconds):
            waits.append(seconds)

        client._sleep = sleep
        async with client:
            answer = await client.whoami()
        return answer, waits

    answer, waits = asyncio.run(run())
    assert answer.to_dict()["token"]["name"] == "Northwind read" and waits == [1.0]


def test_tokens_go_to_their_client():
    with pytest.raises(ValueError, match="AgencyClient"):
        salesfigures.Client("agy_abc")
    with pytest.raises(ValueError, match="agency token"):
        salesfigures.AgencyClient("svc_abc")
