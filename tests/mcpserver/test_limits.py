"""The limits of /mcp are the service's: requests with a failed token count against their
address, a body over 1 MiB is refused before it is read, and JSON is the standard's."""

import random

import httpx2
import pytest

from core import throttling

pytestmark = pytest.mark.django_db(transaction=True)

ACCEPT = "application/json, text/event-stream"


def _post(base, *, token=None, content=None, json_body=None, **headers):
    headers.setdefault("Accept", ACCEPT)
    headers.setdefault("Content-Type", "application/json")
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return httpx2.post(f"{base}/mcp", content=content, json=json_body, headers=headers, timeout=30)


def test_failed_tokens_count_against_the_address(mcp_base_url, settings, monkeypatch, own_minute):
    settings.RATE_LIMIT_ANON = "3/min"
    real = throttling.rate_count
    monkeypatch.setattr(
        "mcpserver.asgi.rate_count", lambda policy, ident: real(policy, ident, own_minute)
    )
    address = f"10.66.{random.randint(0, 255)}.{random.randint(1, 254)}"
    statuses = [
        _post(
            mcp_base_url, token="svc_" + "0" * 64, json_body={}, **{"X-Forwarded-For": address}
        ).status_code
        for _ in range(4)
    ]
    # NUM_PROXIES is 0 in the tests: the peer (127.0.0.1) is counted, whatever it forwards.
    assert statuses == [401, 401, 401, 429]


def test_a_body_over_the_limit_is_refused_before_it_is_read(
    mcp_base_url, make_workspace, workspace_token
):
    token = workspace_token(make_workspace())
    big = (
        b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"x": "'
        + b"a" * (1024 * 1024)
        + b'"}}'
    )
    answer = _post(mcp_base_url, token=token, content=big)
    assert answer.status_code == 400
    assert answer.json()["error"]["reason"] == "invalid_body"
    assert "1 MiB" in answer.json()["error"]["message"]


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_an_id_that_is_no_json_number_is_a_parse_error(
    mcp_base_url, make_workspace, workspace_token, constant
):
    token = workspace_token(make_workspace())
    body = f'{{"jsonrpc": "2.0", "id": {constant}, "method": "tools/list", "params": {{}}}}'
    answer = _post(mcp_base_url, token=token, content=body.encode())
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == -32700
    assert answer.json()["id"] is None
