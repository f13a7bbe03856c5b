from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.list_goals_envelope import ListGoalsEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    month: Union[Unset, str] = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["month"] = month

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/goals",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[Error, ListGoalsEnvelope]]:
    if response.status_code == 200:
        response_200 = ListGoalsEnvelope.from_dict(response.json())

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
) -> Response[Union[Error, ListGoalsEnvelope]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    month: Union[Unset, str] = UNSET,
) -> Response[Union[Error, ListGoalsEnvelope]]:
    """A month's goals: actual, target, expected by today, attainment, pace, projection

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    `period` is the month's first and last day. `data.goals` lists the month's goals, the workspace's
    first (`member` null), then members by name, each in the order leads.created, calls.booked,
    calls.taken, calls.closed, payments.cash_collected, payments.revenue_booked, with its `metric`, its
    `member` and its Fields. The actual, target, expected and projected figures are counts or money as
    the goal's metric is; attainment and pace are rates that may exceed 1. Goals are set with PUT
    /api/v1/goals/{month} (the Agent API), the import's goal lines or the Goals page.

    Metrics (see docs/metrics.md):

    - `goal.actual` (count or money): The figure the goal is set on: the goal's metric over the month so
    far: to the end of today in the workspace's zone, the whole month once it is past, nothing for a
    month to come. A member's figure is read in their slot, as /commission reads their sales:
    leads.created and calls.booked as the setter, calls.taken, calls.closed, payments.cash_collected and
    payments.revenue_booked as the closer.
    - `goal.target` (count or money): What the goal sets for the month: a whole number, or money in
    major units.
    - `goal.expected` (count or money): Target x elapsed / days, where days is the number of days of the
    month and elapsed its days through today in the workspace's zone (all of them for a past month, 0
    for a month to come); money to the cent, counts to 2 decimals, rounded half up.
    - `goal.attainment` (rate): Actual / target, rounded half up to 4 decimals. It exceeds 1 when the
    goal is beaten. Null: empty-denominator when the target is 0.
    - `goal.pace` (rate): Actual / expected by today, rounded half up to 4 decimals: 1 is on pace, more
    is ahead of it. The app reads 1.05 or more as ahead, under 0.95 as behind. Null: empty-denominator
    when nothing is expected yet (a month to come, or a target of 0).
    - `goal.projected` (count or money): Actual x days / elapsed: where the month ends at this pace;
    money to the cent, counts to 2 decimals, rounded half up. For a past month, the actual. Null: not-
    computed for a month to come.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        month (Union[Unset, str]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, ListGoalsEnvelope]]
    """

    kwargs = _get_kwargs(
        month=month,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    month: Union[Unset, str] = UNSET,
) -> Optional[Union[Error, ListGoalsEnvelope]]:
    """A month's goals: actual, target, expected by today, attainment, pace, projection

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    `period` is the month's first and last day. `data.goals` lists the month's goals, the workspace's
    first (`member` null), then members by name, each in the order leads.created, calls.booked,
    calls.taken, calls.closed, payments.cash_collected, payments.revenue_booked, with its `metric`, its
    `member` and its Fields. The actual, target, expected and projected figures are counts or money as
    the goal's metric is; attainment and pace are rates that may exceed 1. Goals are set with PUT
    /api/v1/goals/{month} (the Agent API), the import's goal lines or the Goals page.

    Metrics (see docs/metrics.md):

    - `goal.actual` (count or money): The figure the goal is set on: the goal's metric over the month so
    far: to the end of today in the workspace's zone, the whole month once it is past, nothing for a
    month to come. A member's figure is read in their slot, as /commission reads their sales:
    leads.created and calls.booked as the setter, calls.taken, calls.closed, payments.cash_collected and
    payments.revenue_booked as the closer.
    - `goal.target` (count or money): What the goal sets for the month: a whole number, or money in
    major units.
    - `goal.expected` (count or money): Target x elapsed / days, where days is the number of days of the
    month and elapsed its days through today in the workspace's zone (all of them for a past month, 0
    for a month to come); money to the cent, counts to 2 decimals, rounded half up.
    - `goal.attainment` (rate): Actual / target, rounded half up to 4 decimals. It exceeds 1 when the
    goal is beaten. Null: empty-denominator when the target is 0.
    - `goal.pace` (rate): Actual / expected by today, rounded half up to 4 decimals: 1 is on pace, more
    is ahead of it. The app reads 1.05 or more as ahead, under 0.95 as behind. Null: empty-denominator
    when nothing is expected yet (a month to come, or a target of 0).
    - `goal.projected` (count or money): Actual x days / elapsed: where the month ends at this pace;
    money to the cent, counts to 2 decimals, rounded half up. For a past month, the actual. Null: not-
    computed for a month to come.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        month (Union[Unset, str]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, ListGoalsEnvelope]
    """

    return sync_detailed(
        client=client,
        month=month,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    month: Union[Unset, str] = UNSET,
) -> Response[Union[Error, ListGoalsEnvelope]]:
    """A month's goals: actual, target, expected by today, attainment, pace, projection

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    `period` is the month's first and last day. `data.goals` lists the month's goals, the workspace's
    first (`member` null), then members by name, each in the order leads.created, calls.booked,
    calls.taken, calls.closed, payments.cash_collected, payments.revenue_booked, with its `metric`, its
    `member` and its Fields. The actual, target, expected and projected figures are counts or money as
    the goal's metric is; attainment and pace are rates that may exceed 1. Goals are set with PUT
    /api/v1/goals/{month} (the Agent API), the import's goal lines or the Goals page.

    Metrics (see docs/metrics.md):

    - `goal.actual` (count or money): The figure the goal is set on: the goal's metric over the month so
    far: to the end of today in the workspace's zone, the whole month once it is past, nothing for a
    month to come. A member's figure is read in their slot, as /commission reads their sales:
    leads.created and calls.booked as the setter, calls.taken, calls.closed, payments.cash_collected and
    payments.revenue_booked as the closer.
    - `goal.target` (count or money): What the goal sets for the month: a whole number, or money in
    major units.
    - `goal.expected` (count or money): Target x elapsed / days, where days is the number of days of the
    month and elapsed its days through today in the workspace's zone (all of them for a past month, 0
    for a month to come); money to the cent, counts to 2 decimals, rounded half up.
    - `goal.attainment` (rate): Actual / target, rounded half up to 4 decimals. It exceeds 1 when the
    goal is beaten. Null: empty-denominator when the target is 0.
    - `goal.pace` (rate): Actual / expected by today, rounded half up to 4 decimals: 1 is on pace, more
    is ahead of it. The app reads 1.05 or more as ahead, under 0.95 as behind. Null: empty-denominator
    when nothing is expected yet (a month to come, or a target of 0).
    - `goal.projected` (count or money): Actual x days / elapsed: where the month ends at this pace;
    money to the cent, counts to 2 decimals, rounded half up. For a past month, the actual. Null: not-
    computed for a month to come.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        month (Union[Unset, str]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, ListGoalsEnvelope]]
    """

    kwargs = _get_kwargs(
        month=month,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    month: Union[Unset, str] = UNSET,
) -> Optional[Union[Error, ListGoalsEnvelope]]:
    """A month's goals: actual, target, expected by today, attainment, pace, projection

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    `period` is the month's first and last day. `data.goals` lists the month's goals, the workspace's
    first (`member` null), then members by name, each in the order leads.created, calls.booked,
    calls.taken, calls.closed, payments.cash_collected, payments.revenue_booked, with its `metric`, its
    `member` and its Fields. The actual, target, expected and projected figures are counts or money as
    the goal's metric is; attainment and pace are rates that may exceed 1. Goals are set with PUT
    /api/v1/goals/{month} (the Agent API), the import's goal lines or the Goals page.

    Metrics (see docs/metrics.md):

    - `goal.actual` (count or money): The figure the goal is set on: the goal's metric over the month so
    far: to the end of today in the workspace's zone, the whole month once it is past, nothing for a
    month to come. A member's figure is read in their slot, as /commission reads their sales:
    leads.created and calls.booked as the setter, calls.taken, calls.closed, payments.cash_collected and
    payments.revenue_booked as the closer.
    - `goal.target` (count or money): What the goal sets for the month: a whole number, or money in
    major units.
    - `goal.expected` (count or money): Target x elapsed / days, where days is the number of days of the
    month and elapsed its days through today in the workspace's zone (all of them for a past month, 0
    for a month to come); money to the cent, counts to 2 decimals, rounded half up.
    - `goal.attainment` (rate): Actual / target, rounded half up to 4 decimals. It exceeds 1 when the
    goal is beaten. Null: empty-denominator when the target is 0.
    - `goal.pace` (rate): Actual / expected by today, rounded half up to 4 decimals: 1 is on pace, more
    is ahead of it. The app reads 1.05 or more as ahead, under 0.95 as behind. Null: empty-denominator
    when nothing is expected yet (a month to come, or a target of 0).
    - `goal.projected` (count or money): Actual x days / elapsed: where the month ends at this pace;
    money to the cent, counts to 2 decimals, rounded half up. For a past month, the actual. Null: not-
    computed for a month to come.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        month (Union[Unset, str]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, ListGoalsEnvelope]
    """

    return (
        await asyncio_detailed(
            client=client,
            month=month,
        )
    ).parsed
