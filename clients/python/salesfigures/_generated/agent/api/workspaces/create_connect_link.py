from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.connect_link_body_request import ConnectLinkBodyRequest
from ...models.connect_link_created import ConnectLinkCreated
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    id: str,
    *,
    body: ConnectLinkBodyRequest,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/workspaces/{id}/connect-links".format(
            id=id,
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[ConnectLinkCreated, Error]]:
    if response.status_code == 201:
        response_201 = ConnectLinkCreated.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

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
) -> Response[Union[ConnectLinkCreated, Error]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: ConnectLinkBodyRequest,
    idempotency_key: str,
) -> Response[Union[ConnectLinkCreated, Error]]:
    """Make a connect link for one of the agency's workspaces

     The answer carries the link's URL once; it is never shown again. The link opens a page where a
    client connects the offered integrations by giving their credentials (stored encrypted, never
    returned).

    Args:
        id (str):
        idempotency_key (str):
        body (ConnectLinkBodyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[ConnectLinkCreated, Error]]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    body: ConnectLinkBodyRequest,
    idempotency_key: str,
) -> Optional[Union[ConnectLinkCreated, Error]]:
    """Make a connect link for one of the agency's workspaces

     The answer carries the link's URL once; it is never shown again. The link opens a page where a
    client connects the offered integrations by giving their credentials (stored encrypted, never
    returned).

    Args:
        id (str):
        idempotency_key (str):
        body (ConnectLinkBodyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[ConnectLinkCreated, Error]
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: ConnectLinkBodyRequest,
    idempotency_key: str,
) -> Response[Union[ConnectLinkCreated, Error]]:
    """Make a connect link for one of the agency's workspaces

     The answer carries the link's URL once; it is never shown again. The link opens a page where a
    client connects the offered integrations by giving their credentials (stored encrypted, never
    returned).

    Args:
        id (str):
        idempotency_key (str):
        body (ConnectLinkBodyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[ConnectLinkCreated, Error]]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: ConnectLinkBodyRequest,
    idempotency_key: str,
) -> Optional[Union[ConnectLinkCreated, Error]]:
    """Make a connect link for one of the agency's workspaces

     The answer carries the link's URL once; it is never shown again. The link opens a page where a
    client connects the offered integrations by giving their credentials (stored encrypted, never
    returned).

    Args:
        id (str):
        idempotency_key (str):
        body (ConnectLinkBodyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[ConnectLinkCreated, Error]
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
