from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.goals_month import GoalsMonth
from ...models.goals_replace_request import GoalsReplaceRequest
from ...types import Response


def _get_kwargs(
    month: str,
    *,
    body: GoalsReplaceRequest,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/api/v1/goals/{month}".format(
            month=month,
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[Error, GoalsMonth]]:
    if response.status_code == 200:
        response_200 = GoalsMonth.from_dict(response.json())

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
) -> Response[Union[Error, GoalsMonth]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    month: str,
    *,
    client: AuthenticatedClient,
    body: GoalsReplaceRequest,
    idempotency_key: str,
) -> Response[Union[Error, GoalsMonth]]:
    """Set a month's goals, replacing the ones it had

     The month's goals become those of the body: a goal of the month that is not named again is removed.
    Each goal is set on a `metric` (leads.created, calls.booked, calls.taken, calls.closed,
    payments.cash_collected, payments.revenue_booked) for a `member` (absent or null: the whole
    workspace), with a `target`: a count is a whole number of zero or more, money is in major units of
    the workspace currency. A member's figure is read in their slot: leads and bookings as the setter,
    the rest as the closer. An unknown metric, a member not of the workspace, a negative or fractional
    count, a metric set twice for the same member (or twice for the workspace) or a bad month answers
    400 naming the field and the item's index (`goals.1.target`), and nothing is written. The answer is
    the month's goals, workspace goals first, then by member name. Each write is audited
    (`goals.replaced`) and sends `goal.updated`. Scope `data:write` (a person's session: owner, admin or
    manager). Read the goals against the figures with GET /api/v1/goals of the figures API.

    Args:
        month (str):
        idempotency_key (str):
        body (GoalsReplaceRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, GoalsMonth]]
    """

    kwargs = _get_kwargs(
        month=month,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    month: str,
    *,
    client: AuthenticatedClient,
    body: GoalsReplaceRequest,
    idempotency_key: str,
) -> Optional[Union[Error, GoalsMonth]]:
    """Set a month's goals, replacing the ones it had

     The month's goals become those of the body: a goal of the month that is not named again is removed.
    Each goal is set on a `metric` (leads.created, calls.booked, calls.taken, calls.closed,
    payments.cash_collected, payments.revenue_booked) for a `member` (absent or null: the whole
    workspace), with a `target`: a count is a whole number of zero or more, money is in major units of
    the workspace currency. A member's figure is read in their slot: leads and bookings as the setter,
    the rest as the closer. An unknown metric, a member not of the workspace, a negative or fractional
    count, a metric set twice for the same member (or twice for the workspace) or a bad month answers
    400 naming the field and the item's index (`goals.1.target`), and nothing is written. The answer is
    the month's goals, workspace goals first, then by member name. Each write is audited
    (`goals.replaced`) and sends `goal.updated`. Scope `data:write` (a person's session: owner, admin or
    manager). Read the goals against the figures with GET /api/v1/goals of the figures API.

    Args:
        month (str):
        idempotency_key (str):
        body (GoalsReplaceRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, GoalsMonth]
    """

    return sync_detailed(
        month=month,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    month: str,
    *,
    client: AuthenticatedClient,
    body: GoalsReplaceRequest,
    idempotency_key: str,
) -> Response[Union[Error, GoalsMonth]]:
    """Set a month's goals, replacing the ones it had

     The month's goals become those of the body: a goal of the month that is not named again is removed.
    Each goal is set on a `metric` (leads.created, calls.booked, calls.taken, calls.closed,
    payments.cash_collected, payments.revenue_booked) for a `member` (absent or null: the whole
    workspace), with a `target`: a count is a whole number of zero or more, money is in major units of
    the workspace currency. A member's figure is read in their slot: leads and bookings as the setter,
    the rest as the closer. An unknown metric, a member not of the workspace, a negative or fractional
    count, a metric set twice for the same member (or twice for the workspace) or a bad month answers
    400 naming the field and the item's index (`goals.1.target`), and nothing is written. The answer is
    the month's goals, workspace goals first, then by member name. Each write is audited
    (`goals.replaced`) and sends `goal.updated`. Scope `data:write` (a person's session: owner, admin or
    manager). Read the goals against the figures with GET /api/v1/goals of the figures API.

    Args:
        month (str):
        idempotency_key (str):
        body (GoalsReplaceRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, GoalsMonth]]
    """

    kwargs = _get_kwargs(
        month=month,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    month: str,
    *,
    client: AuthenticatedClient,
    body: GoalsReplaceRequest,
    idempotency_key: str,
) -> Optional[Union[Error, GoalsMonth]]:
    """Set a month's goals, replacing the ones it had

     The month's goals become those of the body: a goal of the month that is not named again is removed.
    Each goal is set on a `metric` (leads.created, calls.booked, calls.taken, calls.closed,
    payments.cash_collected, payments.revenue_booked) for a `member` (absent or null: the whole
    workspace), with a `target`: a count is a whole number of zero or more, money is in major units of
    the workspace currency. A member's figure is read in their slot: leads and bookings as the setter,
    the rest as the closer. An unknown metric, a member not of the workspace, a negative or fractional
    count, a metric set twice for the same member (or twice for the workspace) or a bad month answers
    400 naming the field and the item's index (`goals.1.target`), and nothing is written. The answer is
    the month's goals, workspace goals first, then by member name. Each write is audited
    (`goals.replaced`) and sends `goal.updated`. Scope `data:write` (a person's session: owner, admin or
    manager). Read the goals against the figures with GET /api/v1/goals of the figures API.

    Args:
        month (str):
        idempotency_key (str):
        body (GoalsReplaceRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, GoalsMonth]
    """

    return (
        await asyncio_detailed(
            month=month,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
