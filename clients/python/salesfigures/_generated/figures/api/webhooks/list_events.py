from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.event_list import EventList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    after: Union[Unset, str] = UNSET,
    limit: Union[Unset, int] = 100,
    types: Union[Unset, str] = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["after"] = after

    params["limit"] = limit

    params["types"] = types

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/events",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[Error, EventList]]:
    if response.status_code == 200:
        response_200 = EventList.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

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
) -> Response[Union[Error, EventList]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    after: Union[Unset, str] = UNSET,
    limit: Union[Unset, int] = 100,
    types: Union[Unset, str] = UNSET,
) -> Response[Union[Error, EventList]]:
    """The workspace's events of the last 30 days, oldest first

     For integrators who cannot take webhooks, or who catch up after downtime: page with `after` (the
    last event id received) while `has_more` is true. Each event is the object a webhook delivery
    carries: each type's payload is a callback of createWebhookEndpoint in the Agent and Agency API's
    description (`/openapi/agent.json`). Scope `read`.

    Args:
        after (Union[Unset, str]):
        limit (Union[Unset, int]):  Default: 100.
        types (Union[Unset, str]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, EventList]]
    """

    kwargs = _get_kwargs(
        after=after,
        limit=limit,
        types=types,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    after: Union[Unset, str] = UNSET,
    limit: Union[Unset, int] = 100,
    types: Union[Unset, str] = UNSET,
) -> Optional[Union[Error, EventList]]:
    """The workspace's events of the last 30 days, oldest first

     For integrators who cannot take webhooks, or who catch up after downtime: page with `after` (the
    last event id received) while `has_more` is true. Each event is the object a webhook delivery
    carries: each type's payload is a callback of createWebhookEndpoint in the Agent and Agency API's
    description (`/openapi/agent.json`). Scope `read`.

    Args:
        after (Union[Unset, str]):
        limit (Union[Unset, int]):  Default: 100.
        types (Union[Unset, str]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, EventList]
    """

    return sync_detailed(
        client=client,
        after=after,
        limit=limit,
        types=types,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    after: Union[Unset, str] = UNSET,
    limit: Union[Unset, int] = 100,
    types: Union[Unset, str] = UNSET,
) -> Response[Union[Error, EventList]]:
    """The workspace's events of the last 30 days, oldest first

     For integrators who cannot take webhooks, or who catch up after downtime: page with `after` (the
    last event id received) while `has_more` is true. Each event is the object a webhook delivery
    carries: each type's payload is a callback of createWebhookEndpoint in the Agent and Agency API's
    description (`/openapi/agent.json`). Scope `read`.

    Args:
        after (Union[Unset, str]):
        limit (Union[Unset, int]):  Default: 100.
        types (Union[Unset, str]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, EventList]]
    """

    kwargs = _get_kwargs(
        after=after,
        limit=limit,
        types=types,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    after: Union[Unset, str] = UNSET,
    limit: Union[Unset, int] = 100,
    types: Union[Unset, str] = UNSET,
) -> Optional[Union[Error, EventList]]:
    """The workspace's events of the last 30 days, oldest first

     For integrators who cannot take webhooks, or who catch up after downtime: page with `after` (the
    last event id received) while `has_more` is true. Each event is the object a webhook delivery
    carries: each type's payload is a callback of createWebhookEndpoint in the Agent and Agency API's
    description (`/openapi/agent.json`). Scope `read`.

    Args:
        after (Union[Unset, str]):
        limit (Union[Unset, int]):  Default: 100.
        types (Union[Unset, str]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, EventList]
    """

    return (
        await asyncio_detailed(
            client=client,
            after=after,
            limit=limit,
            types=types,
        )
    ).parsed
