from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.ad_spend_record import AdSpendRecord
from ...models.ad_spend_write_request import AdSpendWriteRequest
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    *,
    body: AdSpendWriteRequest,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/ad-spend",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[AdSpendRecord, Error]]:
    if response.status_code == 200:
        response_200 = AdSpendRecord.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = AdSpendRecord.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 422:
        response_422 = Error.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Response[Union[AdSpendRecord, Error]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: AdSpendWriteRequest,
    idempotency_key: str,
) -> Response[Union[AdSpendRecord, Error]]:
    """Record what a campaign's ads cost on a day

     One ad spend record of the token's workspace: `id` is the record's own id (the platform's), `date`
    the day the money was spent in the workspace's timezone, `platform` a key (meta, google, tiktok...),
    the UTM values the ads carry (absent or null: none), the optional campaign, impressions and clicks,
    and `amount` in major units of the workspace currency (zero or more; a `currency` other than the
    workspace's is refused). Writing the same `id` again replaces the record (platforms revise recent
    days): 201 when it is made, 200 when it replaced one. A bad or unknown member answers 400 naming it.
    Each write is audited and sends `ad_spend.updated` when the record changed. Scope `data:write` (a
    person's session: owner or admin). The records are read with GET /api/v1/ad-spend and the
    acquisition figures (/api/v1/acquisition) of the figures API.

    Args:
        idempotency_key (str):
        body (AdSpendWriteRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[AdSpendRecord, Error]]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: AdSpendWriteRequest,
    idempotency_key: str,
) -> Optional[Union[AdSpendRecord, Error]]:
    """Record what a campaign's ads cost on a day

     One ad spend record of the token's workspace: `id` is the record's own id (the platform's), `date`
    the day the money was spent in the workspace's timezone, `platform` a key (meta, google, tiktok...),
    the UTM values the ads carry (absent or null: none), the optional campaign, impressions and clicks,
    and `amount` in major units of the workspace currency (zero or more; a `currency` other than the
    workspace's is refused). Writing the same `id` again replaces the record (platforms revise recent
    days): 201 when it is made, 200 when it replaced one. A bad or unknown member answers 400 naming it.
    Each write is audited and sends `ad_spend.updated` when the record changed. Scope `data:write` (a
    person's session: owner or admin). The records are read with GET /api/v1/ad-spend and the
    acquisition figures (/api/v1/acquisition) of the figures API.

    Args:
        idempotency_key (str):
        body (AdSpendWriteRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[AdSpendRecord, Error]
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: AdSpendWriteRequest,
    idempotency_key: str,
) -> Response[Union[AdSpendRecord, Error]]:
    """Record what a campaign's ads cost on a day

     One ad spend record of the token's workspace: `id` is the record's own id (the platform's), `date`
    the day the money was spent in the workspace's timezone, `platform` a key (meta, google, tiktok...),
    the UTM values the ads carry (absent or null: none), the optional campaign, impressions and clicks,
    and `amount` in major units of the workspace currency (zero or more; a `currency` other than the
    workspace's is refused). Writing the same `id` again replaces the record (platforms revise recent
    days): 201 when it is made, 200 when it replaced one. A bad or unknown member answers 400 naming it.
    Each write is audited and sends `ad_spend.updated` when the record changed. Scope `data:write` (a
    person's session: owner or admin). The records are read with GET /api/v1/ad-spend and the
    acquisition figures (/api/v1/acquisition) of the figures API.

    Args:
        idempotency_key (str):
        body (AdSpendWriteRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[AdSpendRecord, Error]]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: AdSpendWriteRequest,
    idempotency_key: str,
) -> Optional[Union[AdSpendRecord, Error]]:
    """Record what a campaign's ads cost on a day

     One ad spend record of the token's workspace: `id` is the record's own id (the platform's), `date`
    the day the money was spent in the workspace's timezone, `platform` a key (meta, google, tiktok...),
    the UTM values the ads carry (absent or null: none), the optional campaign, impressions and clicks,
    and `amount` in major units of the workspace currency (zero or more; a `currency` other than the
    workspace's is refused). Writing the same `id` again replaces the record (platforms revise recent
    days): 201 when it is made, 200 when it replaced one. A bad or unknown member answers 400 naming it.
    Each write is audited and sends `ad_spend.updated` when the record changed. Scope `data:write` (a
    person's session: owner or admin). The records are read with GET /api/v1/ad-spend and the
    acquisition figures (/api/v1/acquisition) of the figures API.

    Args:
        idempotency_key (str):
        body (AdSpendWriteRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[AdSpendRecord, Error]
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
