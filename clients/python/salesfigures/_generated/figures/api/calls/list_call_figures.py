import datetime
from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.list_call_figures_envelope import ListCallFiguresEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
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
        "url": "/api/v1/calls",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[Error, ListCallFiguresEnvelope]]:
    if response.status_code == 200:
        response_200 = ListCallFiguresEnvelope.from_dict(response.json())

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
) -> Response[Union[Error, ListCallFiguresEnvelope]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    from_: Union[Unset, datetime.date] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> Response[Union[Error, ListCallFiguresEnvelope]]:
    """Calls booked, taken, closed and the rates between them

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    Metrics (see docs/metrics.md):

    - `calls.booked` (count): Calls whose final scheduled start is in the period and that were not
    cancelled. A rescheduled call counts once, at its final time; the call it replaced no longer counts
    anywhere. booked = taken + no_show + awaiting_outcome + upcoming.
    - `calls.cancelled` (count): Calls whose final scheduled start is in the period and that were
    cancelled.
    - `calls.taken` (count): Booked calls marked showed.
    - `calls.no_show` (count): Booked calls marked no-show.
    - `calls.awaiting_outcome` (count): Booked calls whose start has passed with no attendance recorded.
    - `calls.upcoming` (count): Booked calls that have not started yet and have no attendance recorded.
    - `calls.closed` (count): Taken calls whose outcome (the call's latest outcome) is closed or
    deposit.
    - `calls.show_rate` (rate): Taken calls / (taken + no-shows). Calls not yet resolved (awaiting an
    outcome, upcoming) are left out; an awaiting-outcome note says how many are unresolved. Null: empty-
    denominator when no call in the period is marked showed or no-show.
    - `calls.close_rate` (rate): Taken calls closed (outcome closed or deposit) / taken calls. Null:
    empty-denominator when no call was taken.
    - `calls.offer_rate` (rate): Taken calls with an offer made / taken calls. Null: empty-denominator
    when no call was taken; no-numerator when no taken call has the offer recorded either way.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        from_ (Union[Unset, datetime.date]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, ListCallFiguresEnvelope]]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    from_: Union[Unset, datetime.date] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> Optional[Union[Error, ListCallFiguresEnvelope]]:
    """Calls booked, taken, closed and the rates between them

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    Metrics (see docs/metrics.md):

    - `calls.booked` (count): Calls whose final scheduled start is in the period and that were not
    cancelled. A rescheduled call counts once, at its final time; the call it replaced no longer counts
    anywhere. booked = taken + no_show + awaiting_outcome + upcoming.
    - `calls.cancelled` (count): Calls whose final scheduled start is in the period and that were
    cancelled.
    - `calls.taken` (count): Booked calls marked showed.
    - `calls.no_show` (count): Booked calls marked no-show.
    - `calls.awaiting_outcome` (count): Booked calls whose start has passed with no attendance recorded.
    - `calls.upcoming` (count): Booked calls that have not started yet and have no attendance recorded.
    - `calls.closed` (count): Taken calls whose outcome (the call's latest outcome) is closed or
    deposit.
    - `calls.show_rate` (rate): Taken calls / (taken + no-shows). Calls not yet resolved (awaiting an
    outcome, upcoming) are left out; an awaiting-outcome note says how many are unresolved. Null: empty-
    denominator when no call in the period is marked showed or no-show.
    - `calls.close_rate` (rate): Taken calls closed (outcome closed or deposit) / taken calls. Null:
    empty-denominator when no call was taken.
    - `calls.offer_rate` (rate): Taken calls with an offer made / taken calls. Null: empty-denominator
    when no call was taken; no-numerator when no taken call has the offer recorded either way.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        from_ (Union[Unset, datetime.date]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, ListCallFiguresEnvelope]
    """

    return sync_detailed(
        client=client,
        from_=from_,
        to=to,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    from_: Union[Unset, datetime.date] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> Response[Union[Error, ListCallFiguresEnvelope]]:
    """Calls booked, taken, closed and the rates between them

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    Metrics (see docs/metrics.md):

    - `calls.booked` (count): Calls whose final scheduled start is in the period and that were not
    cancelled. A rescheduled call counts once, at its final time; the call it replaced no longer counts
    anywhere. booked = taken + no_show + awaiting_outcome + upcoming.
    - `calls.cancelled` (count): Calls whose final scheduled start is in the period and that were
    cancelled.
    - `calls.taken` (count): Booked calls marked showed.
    - `calls.no_show` (count): Booked calls marked no-show.
    - `calls.awaiting_outcome` (count): Booked calls whose start has passed with no attendance recorded.
    - `calls.upcoming` (count): Booked calls that have not started yet and have no attendance recorded.
    - `calls.closed` (count): Taken calls whose outcome (the call's latest outcome) is closed or
    deposit.
    - `calls.show_rate` (rate): Taken calls / (taken + no-shows). Calls not yet resolved (awaiting an
    outcome, upcoming) are left out; an awaiting-outcome note says how many are unresolved. Null: empty-
    denominator when no call in the period is marked showed or no-show.
    - `calls.close_rate` (rate): Taken calls closed (outcome closed or deposit) / taken calls. Null:
    empty-denominator when no call was taken.
    - `calls.offer_rate` (rate): Taken calls with an offer made / taken calls. Null: empty-denominator
    when no call was taken; no-numerator when no taken call has the offer recorded either way.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        from_ (Union[Unset, datetime.date]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, ListCallFiguresEnvelope]]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    from_: Union[Unset, datetime.date] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> Optional[Union[Error, ListCallFiguresEnvelope]]:
    """Calls booked, taken, closed and the rates between them

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    Metrics (see docs/metrics.md):

    - `calls.booked` (count): Calls whose final scheduled start is in the period and that were not
    cancelled. A rescheduled call counts once, at its final time; the call it replaced no longer counts
    anywhere. booked = taken + no_show + awaiting_outcome + upcoming.
    - `calls.cancelled` (count): Calls whose final scheduled start is in the period and that were
    cancelled.
    - `calls.taken` (count): Booked calls marked showed.
    - `calls.no_show` (count): Booked calls marked no-show.
    - `calls.awaiting_outcome` (count): Booked calls whose start has passed with no attendance recorded.
    - `calls.upcoming` (count): Booked calls that have not started yet and have no attendance recorded.
    - `calls.closed` (count): Taken calls whose outcome (the call's latest outcome) is closed or
    deposit.
    - `calls.show_rate` (rate): Taken calls / (taken + no-shows). Calls not yet resolved (awaiting an
    outcome, upcoming) are left out; an awaiting-outcome note says how many are unresolved. Null: empty-
    denominator when no call in the period is marked showed or no-show.
    - `calls.close_rate` (rate): Taken calls closed (outcome closed or deposit) / taken calls. Null:
    empty-denominator when no call was taken.
    - `calls.offer_rate` (rate): Taken calls with an offer made / taken calls. Null: empty-denominator
    when no call was taken; no-numerator when no taken call has the offer recorded either way.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        from_ (Union[Unset, datetime.date]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, ListCallFiguresEnvelope]
    """

    return (
        await asyncio_detailed(
            client=client,
            from_=from_,
            to=to,
        )
    ).parsed
