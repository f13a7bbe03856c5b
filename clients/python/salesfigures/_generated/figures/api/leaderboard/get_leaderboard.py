import datetime
from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.get_leaderboard_envelope import GetLeaderboardEnvelope
from ...models.get_leaderboard_role import GetLeaderboardRole
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    from_: Union[Unset, datetime.date] = UNSET,
    role: Union[Unset, GetLeaderboardRole] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_from_: Union[Unset, str] = UNSET
    if not isinstance(from_, Unset):
        json_from_ = from_.isoformat()
    params["from"] = json_from_

    json_role: Union[Unset, str] = UNSET
    if not isinstance(role, Unset):
        json_role = role.value

    params["role"] = json_role

    json_to: Union[Unset, str] = UNSET
    if not isinstance(to, Unset):
        json_to = to.isoformat()
    params["to"] = json_to

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/leaderboard",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[Error, GetLeaderboardEnvelope]]:
    if response.status_code == 200:
        response_200 = GetLeaderboardEnvelope.from_dict(response.json())

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
) -> Response[Union[Error, GetLeaderboardEnvelope]]:
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
    role: Union[Unset, GetLeaderboardRole] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> Response[Union[Error, GetLeaderboardEnvelope]]:
    """Closers or setters ranked by what they closed or set in the period

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    `data.members` ranks the members of `role`. Closers carry `taken`, `closed`, `close_rate`
    (calls.taken, calls.closed and calls.close_rate of the calls they hold as closer) and
    `cash_collected` (payments.cash_collected of the sales they closed), ranked by cash collected, then
    closes. Setters carry `booked`, `taken` and `show_rate` of the calls they set, ranked by calls
    taken, then booked. Equal members share a rank (1, 1, 3) and are listed by name. Every active member
    of the role is listed, and a deactivated one with figures in the period.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        from_ (Union[Unset, datetime.date]):
        role (Union[Unset, GetLeaderboardRole]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, GetLeaderboardEnvelope]]
    """

    kwargs = _get_kwargs(
        from_=from_,
        role=role,
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
    role: Union[Unset, GetLeaderboardRole] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> Optional[Union[Error, GetLeaderboardEnvelope]]:
    """Closers or setters ranked by what they closed or set in the period

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    `data.members` ranks the members of `role`. Closers carry `taken`, `closed`, `close_rate`
    (calls.taken, calls.closed and calls.close_rate of the calls they hold as closer) and
    `cash_collected` (payments.cash_collected of the sales they closed), ranked by cash collected, then
    closes. Setters carry `booked`, `taken` and `show_rate` of the calls they set, ranked by calls
    taken, then booked. Equal members share a rank (1, 1, 3) and are listed by name. Every active member
    of the role is listed, and a deactivated one with figures in the period.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        from_ (Union[Unset, datetime.date]):
        role (Union[Unset, GetLeaderboardRole]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, GetLeaderboardEnvelope]
    """

    return sync_detailed(
        client=client,
        from_=from_,
        role=role,
        to=to,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    from_: Union[Unset, datetime.date] = UNSET,
    role: Union[Unset, GetLeaderboardRole] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> Response[Union[Error, GetLeaderboardEnvelope]]:
    """Closers or setters ranked by what they closed or set in the period

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    `data.members` ranks the members of `role`. Closers carry `taken`, `closed`, `close_rate`
    (calls.taken, calls.closed and calls.close_rate of the calls they hold as closer) and
    `cash_collected` (payments.cash_collected of the sales they closed), ranked by cash collected, then
    closes. Setters carry `booked`, `taken` and `show_rate` of the calls they set, ranked by calls
    taken, then booked. Equal members share a rank (1, 1, 3) and are listed by name. Every active member
    of the role is listed, and a deactivated one with figures in the period.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        from_ (Union[Unset, datetime.date]):
        role (Union[Unset, GetLeaderboardRole]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, GetLeaderboardEnvelope]]
    """

    kwargs = _get_kwargs(
        from_=from_,
        role=role,
        to=to,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    from_: Union[Unset, datetime.date] = UNSET,
    role: Union[Unset, GetLeaderboardRole] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> Optional[Union[Error, GetLeaderboardEnvelope]]:
    """Closers or setters ranked by what they closed or set in the period

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    `data.members` ranks the members of `role`. Closers carry `taken`, `closed`, `close_rate`
    (calls.taken, calls.closed and calls.close_rate of the calls they hold as closer) and
    `cash_collected` (payments.cash_collected of the sales they closed), ranked by cash collected, then
    closes. Setters carry `booked`, `taken` and `show_rate` of the calls they set, ranked by calls
    taken, then booked. Equal members share a rank (1, 1, 3) and are listed by name. Every active member
    of the role is listed, and a deactivated one with figures in the period.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        from_ (Union[Unset, datetime.date]):
        role (Union[Unset, GetLeaderboardRole]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, GetLeaderboardEnvelope]
    """

    return (
        await asyncio_detailed(
            client=client,
            from_=from_,
            role=role,
            to=to,
        )
    ).parsed
