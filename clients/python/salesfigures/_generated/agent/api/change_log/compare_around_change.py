from http import HTTPStatus
from typing import Any, Optional, Union
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.compare_envelope import CompareEnvelope
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    days: Union[Unset, int] = 14,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["days"] = days

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/change-log/{id}/compare".format(
            id=id,
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[CompareEnvelope, Error]]:
    if response.status_code == 200:
        response_200 = CompareEnvelope.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

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
) -> Response[Union[CompareEnvelope, Error]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    days: Union[Unset, int] = 14,
) -> Response[Union[CompareEnvelope, Error]]:
    """Key figures before and after a change

     The key figures of the N days before the entry's effective_at and of the N days from it
    ([effective_at - N days, effective_at) and [effective_at, effective_at + N days)), side by side,
    each a Field, with the difference after - before. `data.before` and `data.after` give each window's
    from and to as UTC times; the envelope's `period` is in dates, as everywhere: the local days
    (workspace timezone) the two windows touch, both included. days is 1 to 90, default 14; anything
    else answers 400 naming days, as do windows that would reach past the calendar (an entry dated near
    year 1 or 9999).

    Args:
        id (UUID):
        days (Union[Unset, int]):  Default: 14.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[CompareEnvelope, Error]]
    """

    kwargs = _get_kwargs(
        id=id,
        days=days,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    days: Union[Unset, int] = 14,
) -> Optional[Union[CompareEnvelope, Error]]:
    """Key figures before and after a change

     The key figures of the N days before the entry's effective_at and of the N days from it
    ([effective_at - N days, effective_at) and [effective_at, effective_at + N days)), side by side,
    each a Field, with the difference after - before. `data.before` and `data.after` give each window's
    from and to as UTC times; the envelope's `period` is in dates, as everywhere: the local days
    (workspace timezone) the two windows touch, both included. days is 1 to 90, default 14; anything
    else answers 400 naming days, as do windows that would reach past the calendar (an entry dated near
    year 1 or 9999).

    Args:
        id (UUID):
        days (Union[Unset, int]):  Default: 14.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[CompareEnvelope, Error]
    """

    return sync_detailed(
        id=id,
        client=client,
        days=days,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    days: Union[Unset, int] = 14,
) -> Response[Union[CompareEnvelope, Error]]:
    """Key figures before and after a change

     The key figures of the N days before the entry's effective_at and of the N days from it
    ([effective_at - N days, effective_at) and [effective_at, effective_at + N days)), side by side,
    each a Field, with the difference after - before. `data.before` and `data.after` give each window's
    from and to as UTC times; the envelope's `period` is in dates, as everywhere: the local days
    (workspace timezone) the two windows touch, both included. days is 1 to 90, default 14; anything
    else answers 400 naming days, as do windows that would reach past the calendar (an entry dated near
    year 1 or 9999).

    Args:
        id (UUID):
        days (Union[Unset, int]):  Default: 14.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[CompareEnvelope, Error]]
    """

    kwargs = _get_kwargs(
        id=id,
        days=days,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    days: Union[Unset, int] = 14,
) -> Optional[Union[CompareEnvelope, Error]]:
    """Key figures before and after a change

     The key figures of the N days before the entry's effective_at and of the N days from it
    ([effective_at - N days, effective_at) and [effective_at, effective_at + N days)), side by side,
    each a Field, with the difference after - before. `data.before` and `data.after` give each window's
    from and to as UTC times; the envelope's `period` is in dates, as everywhere: the local days
    (workspace timezone) the two windows touch, both included. days is 1 to 90, default 14; anything
    else answers 400 naming days, as do windows that would reach past the calendar (an entry dated near
    year 1 or 9999).

    Args:
        id (UUID):
        days (Union[Unset, int]):  Default: 14.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[CompareEnvelope, Error]
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            days=days,
        )
    ).parsed
