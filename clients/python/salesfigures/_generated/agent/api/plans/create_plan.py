from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.plan import Plan
from ...models.plan_body_request import PlanBodyRequest
from ...types import Response


def _get_kwargs(
    *,
    body: PlanBodyRequest,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/plans",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[Error, Plan]]:
    if response.status_code == 201:
        response_201 = Plan.from_dict(response.json())

        return response_201

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
) -> Response[Union[Error, Plan]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PlanBodyRequest,
    idempotency_key: str,
) -> Response[Union[Error, Plan]]:
    """Check a plan: changes nothing, answers each change as ready or blocked

     Body: optional `blueprint` (a key: the blueprint's shape first, the plan's on top), `workspace`
    (`id` to change one of the agency's workspaces, or `name`, `slug`, `currency`, `timezone` to create
    one), `settings`, `team`, `programmes`, `integrations`. Unknown members answer 400 naming them.
    Needs the Agency plan or above (402).

    Args:
        idempotency_key (str):
        body (PlanBodyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, Plan]]
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
    body: PlanBodyRequest,
    idempotency_key: str,
) -> Optional[Union[Error, Plan]]:
    """Check a plan: changes nothing, answers each change as ready or blocked

     Body: optional `blueprint` (a key: the blueprint's shape first, the plan's on top), `workspace`
    (`id` to change one of the agency's workspaces, or `name`, `slug`, `currency`, `timezone` to create
    one), `settings`, `team`, `programmes`, `integrations`. Unknown members answer 400 naming them.
    Needs the Agency plan or above (402).

    Args:
        idempotency_key (str):
        body (PlanBodyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, Plan]
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PlanBodyRequest,
    idempotency_key: str,
) -> Response[Union[Error, Plan]]:
    """Check a plan: changes nothing, answers each change as ready or blocked

     Body: optional `blueprint` (a key: the blueprint's shape first, the plan's on top), `workspace`
    (`id` to change one of the agency's workspaces, or `name`, `slug`, `currency`, `timezone` to create
    one), `settings`, `team`, `programmes`, `integrations`. Unknown members answer 400 naming them.
    Needs the Agency plan or above (402).

    Args:
        idempotency_key (str):
        body (PlanBodyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, Plan]]
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
    body: PlanBodyRequest,
    idempotency_key: str,
) -> Optional[Union[Error, Plan]]:
    """Check a plan: changes nothing, answers each change as ready or blocked

     Body: optional `blueprint` (a key: the blueprint's shape first, the plan's on top), `workspace`
    (`id` to change one of the agency's workspaces, or `name`, `slug`, `currency`, `timezone` to create
    one), `settings`, `team`, `programmes`, `integrations`. Unknown members answer 400 naming them.
    Needs the Agency plan or above (402).

    Args:
        idempotency_key (str):
        body (PlanBodyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, Plan]
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
