from http import HTTPStatus
from typing import Any, Optional, Union
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.change_create_request import ChangeCreateRequest
from ...models.change_entry import ChangeEntry
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    workspace_id: UUID,
    *,
    body: ChangeCreateRequest,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/workspaces/{workspace_id}/change-log".format(
            workspace_id=workspace_id,
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[ChangeEntry, Error]]:
    if response.status_code == 201:
        response_201 = ChangeEntry.from_dict(response.json())

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
) -> Response[Union[ChangeEntry, Error]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    workspace_id: UUID,
    *,
    client: AuthenticatedClient,
    body: ChangeCreateRequest,
    idempotency_key: str,
) -> Response[Union[ChangeEntry, Error]]:
    """Record a change-log entry against a named workspace

     Records a dated change-log entry (effective_at, kind price|offer|script|rule|other, title, what,
    why). A workspace API token or an owner's, admin's or manager's session token needs `data:write`.
    The form an agency token uses: it needs the `config:plan` scope (a change-log entry describes how
    the workspace is set up, like a plan), else 403 scope.missing with requiredScope config:plan.

    Args:
        workspace_id (UUID):
        idempotency_key (str):
        body (ChangeCreateRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[ChangeEntry, Error]]
    """

    kwargs = _get_kwargs(
        workspace_id=workspace_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    workspace_id: UUID,
    *,
    client: AuthenticatedClient,
    body: ChangeCreateRequest,
    idempotency_key: str,
) -> Optional[Union[ChangeEntry, Error]]:
    """Record a change-log entry against a named workspace

     Records a dated change-log entry (effective_at, kind price|offer|script|rule|other, title, what,
    why). A workspace API token or an owner's, admin's or manager's session token needs `data:write`.
    The form an agency token uses: it needs the `config:plan` scope (a change-log entry describes how
    the workspace is set up, like a plan), else 403 scope.missing with requiredScope config:plan.

    Args:
        workspace_id (UUID):
        idempotency_key (str):
        body (ChangeCreateRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[ChangeEntry, Error]
    """

    return sync_detailed(
        workspace_id=workspace_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    workspace_id: UUID,
    *,
    client: AuthenticatedClient,
    body: ChangeCreateRequest,
    idempotency_key: str,
) -> Response[Union[ChangeEntry, Error]]:
    """Record a change-log entry against a named workspace

     Records a dated change-log entry (effective_at, kind price|offer|script|rule|other, title, what,
    why). A workspace API token or an owner's, admin's or manager's session token needs `data:write`.
    The form an agency token uses: it needs the `config:plan` scope (a change-log entry describes how
    the workspace is set up, like a plan), else 403 scope.missing with requiredScope config:plan.

    Args:
        workspace_id (UUID):
        idempotency_key (str):
        body (ChangeCreateRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[ChangeEntry, Error]]
    """

    kwargs = _get_kwargs(
        workspace_id=workspace_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    workspace_id: UUID,
    *,
    client: AuthenticatedClient,
    body: ChangeCreateRequest,
    idempotency_key: str,
) -> Optional[Union[ChangeEntry, Error]]:
    """Record a change-log entry against a named workspace

     Records a dated change-log entry (effective_at, kind price|offer|script|rule|other, title, what,
    why). A workspace API token or an owner's, admin's or manager's session token needs `data:write`.
    The form an agency token uses: it needs the `config:plan` scope (a change-log entry describes how
    the workspace is set up, like a plan), else 403 scope.missing with requiredScope config:plan.

    Args:
        workspace_id (UUID):
        idempotency_key (str):
        body (ChangeCreateRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[ChangeEntry, Error]
    """

    return (
        await asyncio_detailed(
            workspace_id=workspace_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
