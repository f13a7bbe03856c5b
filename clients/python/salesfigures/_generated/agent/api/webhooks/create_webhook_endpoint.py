from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.endpoint_create_request import EndpointCreateRequest
from ...models.endpoint_created import EndpointCreated
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    *,
    body: EndpointCreateRequest,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/webhook-endpoints",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[EndpointCreated, Error]]:
    if response.status_code == 201:
        response_201 = EndpointCreated.from_dict(response.json())

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
) -> Response[Union[EndpointCreated, Error]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: EndpointCreateRequest,
    idempotency_key: str,
) -> Response[Union[EndpointCreated, Error]]:
    """Add a webhook endpoint

     Scope `data:write` (a person's session: owner or admin). The URL is https and must resolve to a
    public address (a private, loopback or link-local one answers 400 naming `url`); unknown event types
    answer 400 naming `events`. At most 20 endpoints per workspace. The answer holds the signing
    `secret`, shown only here (and in this request's idempotent replay). The callbacks below are the
    events it receives.

    Args:
        idempotency_key (str):
        body (EndpointCreateRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[EndpointCreated, Error]]
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
    body: EndpointCreateRequest,
    idempotency_key: str,
) -> Optional[Union[EndpointCreated, Error]]:
    """Add a webhook endpoint

     Scope `data:write` (a person's session: owner or admin). The URL is https and must resolve to a
    public address (a private, loopback or link-local one answers 400 naming `url`); unknown event types
    answer 400 naming `events`. At most 20 endpoints per workspace. The answer holds the signing
    `secret`, shown only here (and in this request's idempotent replay). The callbacks below are the
    events it receives.

    Args:
        idempotency_key (str):
        body (EndpointCreateRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[EndpointCreated, Error]
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: EndpointCreateRequest,
    idempotency_key: str,
) -> Response[Union[EndpointCreated, Error]]:
    """Add a webhook endpoint

     Scope `data:write` (a person's session: owner or admin). The URL is https and must resolve to a
    public address (a private, loopback or link-local one answers 400 naming `url`); unknown event types
    answer 400 naming `events`. At most 20 endpoints per workspace. The answer holds the signing
    `secret`, shown only here (and in this request's idempotent replay). The callbacks below are the
    events it receives.

    Args:
        idempotency_key (str):
        body (EndpointCreateRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[EndpointCreated, Error]]
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
    body: EndpointCreateRequest,
    idempotency_key: str,
) -> Optional[Union[EndpointCreated, Error]]:
    """Add a webhook endpoint

     Scope `data:write` (a person's session: owner or admin). The URL is https and must resolve to a
    public address (a private, loopback or link-local one answers 400 naming `url`); unknown event types
    answer 400 naming `events`. At most 20 endpoints per workspace. The answer holds the signing
    `secret`, shown only here (and in this request's idempotent replay). The callbacks below are the
    events it receives.

    Args:
        idempotency_key (str):
        body (EndpointCreateRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[EndpointCreated, Error]
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
