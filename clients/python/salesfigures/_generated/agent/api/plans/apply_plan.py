from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.plan_applied import PlanApplied
from ...types import Response


def _get_kwargs(
    id: str,
    *,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/plans/{id}/apply".format(
            id=id,
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[Error, PlanApplied]]:
    if response.status_code == 200:
        response_200 = PlanApplied.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 402:
        response_402 = Error.from_dict(response.json())

        return response_402

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
) -> Response[Union[Error, PlanApplied]]:
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
    idempotency_key: str,
) -> Response[Union[Error, PlanApplied]]:
    """Make the plan's ready changes, in one transaction

     A drafted or approved plan only (else 409 refused.plan_state). Each change is checked again; a
    blocked one is skipped and the result says why. The session tokens of the new members of a workspace
    the plan creates (`result.member_tokens`, valid 30 days) and the connect links' URLs are in this
    answer only; a retry with the same Idempotency-Key answers the same. On a workspace that already
    exists no token is ever returned: every team entry is proposed and listed in `result.invited`; it
    waits for an active owner of the workspace to approve it on the Members page (the owners are
    emailed), and nothing reaches the person before. A plan proposes admin or a lesser role there, never
    owner (blocked, code role_not_proposed). A team email that already has an account in the service is
    never linked and gets no token: it is listed in `result.invited` and becomes a member only when that
    person accepts the invitation after signing in. A token without config:apply gets 403 scope.missing
    with approval 'request': ask for approval instead.

    Args:
        id (str):
        idempotency_key (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, PlanApplied]]
    """

    kwargs = _get_kwargs(
        id=id,
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
    idempotency_key: str,
) -> Optional[Union[Error, PlanApplied]]:
    """Make the plan's ready changes, in one transaction

     A drafted or approved plan only (else 409 refused.plan_state). Each change is checked again; a
    blocked one is skipped and the result says why. The session tokens of the new members of a workspace
    the plan creates (`result.member_tokens`, valid 30 days) and the connect links' URLs are in this
    answer only; a retry with the same Idempotency-Key answers the same. On a workspace that already
    exists no token is ever returned: every team entry is proposed and listed in `result.invited`; it
    waits for an active owner of the workspace to approve it on the Members page (the owners are
    emailed), and nothing reaches the person before. A plan proposes admin or a lesser role there, never
    owner (blocked, code role_not_proposed). A team email that already has an account in the service is
    never linked and gets no token: it is listed in `result.invited` and becomes a member only when that
    person accepts the invitation after signing in. A token without config:apply gets 403 scope.missing
    with approval 'request': ask for approval instead.

    Args:
        id (str):
        idempotency_key (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, PlanApplied]
    """

    return sync_detailed(
        id=id,
        client=client,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str,
) -> Response[Union[Error, PlanApplied]]:
    """Make the plan's ready changes, in one transaction

     A drafted or approved plan only (else 409 refused.plan_state). Each change is checked again; a
    blocked one is skipped and the result says why. The session tokens of the new members of a workspace
    the plan creates (`result.member_tokens`, valid 30 days) and the connect links' URLs are in this
    answer only; a retry with the same Idempotency-Key answers the same. On a workspace that already
    exists no token is ever returned: every team entry is proposed and listed in `result.invited`; it
    waits for an active owner of the workspace to approve it on the Members page (the owners are
    emailed), and nothing reaches the person before. A plan proposes admin or a lesser role there, never
    owner (blocked, code role_not_proposed). A team email that already has an account in the service is
    never linked and gets no token: it is listed in `result.invited` and becomes a member only when that
    person accepts the invitation after signing in. A token without config:apply gets 403 scope.missing
    with approval 'request': ask for approval instead.

    Args:
        id (str):
        idempotency_key (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, PlanApplied]]
    """

    kwargs = _get_kwargs(
        id=id,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str,
) -> Optional[Union[Error, PlanApplied]]:
    """Make the plan's ready changes, in one transaction

     A drafted or approved plan only (else 409 refused.plan_state). Each change is checked again; a
    blocked one is skipped and the result says why. The session tokens of the new members of a workspace
    the plan creates (`result.member_tokens`, valid 30 days) and the connect links' URLs are in this
    answer only; a retry with the same Idempotency-Key answers the same. On a workspace that already
    exists no token is ever returned: every team entry is proposed and listed in `result.invited`; it
    waits for an active owner of the workspace to approve it on the Members page (the owners are
    emailed), and nothing reaches the person before. A plan proposes admin or a lesser role there, never
    owner (blocked, code role_not_proposed). A team email that already has an account in the service is
    never linked and gets no token: it is listed in `result.invited` and becomes a member only when that
    person accepts the invitation after signing in. A token without config:apply gets 403 scope.missing
    with approval 'request': ask for approval instead.

    Args:
        id (str):
        idempotency_key (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, PlanApplied]
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            idempotency_key=idempotency_key,
        )
    ).parsed
