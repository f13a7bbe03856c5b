import datetime
from http import HTTPStatus
from typing import Any, Optional, Union
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.change_list import ChangeList
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    workspace_id: UUID,
    *,
    from_: Union[Unset, datetime.date] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_from_: Union[Unset, str] = UNSET
    if not isinstance(from_, Unset):
        json_from_ = from_.isoformat()
    params["from"] = json_from_

    json_to: Union[Unset, str] = UNSET
    if not isinstance(to, Unset):
        json_to = to.isoformat()
    params["to"] = json_to

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/workspaces/{workspace_id}/change-log".format(
            workspace_id=workspace_id,
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[ChangeList, Error]]:
    if response.status_code == 200:
        response_200 = ChangeList.from_dict(response.json())

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
) -> Response[Union[ChangeList, Error]]:
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
    from_: Union[Unset, datetime.date] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> Response[Union[ChangeList, Error]]:
    """Change-log entries of a named workspace in a period

     Entries whose effective_at falls in the period, newest first. from/to are days in the workspace
    timezone, both included; to defaults to today there and from to to - 29 days; a bad date or from
    after to answers 400 naming it. Same as listChanges, naming the workspace: the form an agency token
    (scope `read`) uses for its agency's workspaces.

    Args:
        workspace_id (UUID):
        from_ (Union[Unset, datetime.date]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[ChangeList, Error]]
    """

    kwargs = _get_kwargs(
        workspace_id=workspace_id,
        from_=from_,
        to=to,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    workspace_id: UUID,
    *,
    client: AuthenticatedClient,
    from_: Union[Unset, datetime.date] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> Optional[Union[ChangeList, Error]]:
    """Change-log entries of a named workspace in a period

     Entries whose effective_at falls in the period, newest first. from/to are days in the workspace
    timezone, both included; to defaults to today there and from to to - 29 days; a bad date or from
    after to answers 400 naming it. Same as listChanges, naming the workspace: the form an agency token
    (scope `read`) uses for its agency's workspaces.

    Args:
        workspace_id (UUID):
        from_ (Union[Unset, datetime.date]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[ChangeList, Error]
    """

    return sync_detailed(
        workspace_id=workspace_id,
        client=client,
        from_=from_,
        to=to,
    ).parsed


async def asyncio_detailed(
    workspace_id: UUID,
    *,
    client: AuthenticatedClient,
    from_: Union[Unset, datetime.date] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> Response[Union[ChangeList, Error]]:
    """Change-log entries of a named workspace in a period

     Entries whose effective_at falls in the period, newest first. from/to are days in the workspace
    timezone, both included; to defaults to today there and from to to - 29 days; a bad date or from
    after to answers 400 naming it. Same as listChanges, naming the workspace: the form an agency token
    (scope `read`) uses for its agency's workspaces.

    Args:
        workspace_id (UUID):
        from_ (Union[Unset, datetime.date]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[ChangeList, Error]]
    """

    kwargs = _get_kwargs(
        workspace_id=workspace_id,
        from_=from_,
        to=to,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    workspace_id: UUID,
    *,
    client: AuthenticatedClient,
    from_: Union[Unset, datetime.date] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> Optional[Union[ChangeList, Error]]:
    """Change-log entries of a named workspace in a period

     Entries whose effective_at falls in the period, newest first. from/to are days in the workspace
    timezone, both included; to defaults to today there and from to to - 29 days; a bad date or from
    after to answers 400 naming it. Same as listChanges, naming the workspace: the form an agency token
    (scope `read`) uses for its agency's workspaces.

    Args:
        workspace_id (UUID):
        from_ (Union[Unset, datetime.date]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[ChangeList, Error]
    """

    return (
        await asyncio_detailed(
            workspace_id=workspace_id,
            client=client,
            from_=from_,
            to=to,
        )
    ).parsed
