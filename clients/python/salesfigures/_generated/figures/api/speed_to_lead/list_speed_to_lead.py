from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.list_speed_to_lead_envelope import ListSpeedToLeadEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    within_minutes: Union[Unset, int] = 120,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["withinMinutes"] = within_minutes

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/speed-to-lead",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[Error, ListSpeedToLeadEnvelope]]:
    if response.status_code == 200:
        response_200 = ListSpeedToLeadEnvelope.from_dict(response.json())

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
) -> Response[Union[Error, ListSpeedToLeadEnvelope]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    within_minutes: Union[Unset, int] = 120,
) -> Response[Union[Error, ListSpeedToLeadEnvelope]]:
    """Leads still waiting for a first contact

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    Metrics (see docs/metrics.md):

    - `speed_to_lead.waiting` (count): Leads created in the last withinMinutes minutes with no first
    contact yet.
    - `speed_to_lead.contacted_rate` (rate): Leads created in the last withinMinutes minutes already
    contacted / all of them. Null: empty-denominator when no lead was created in the window.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        within_minutes (Union[Unset, int]):  Default: 120.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, ListSpeedToLeadEnvelope]]
    """

    kwargs = _get_kwargs(
        within_minutes=within_minutes,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    within_minutes: Union[Unset, int] = 120,
) -> Optional[Union[Error, ListSpeedToLeadEnvelope]]:
    """Leads still waiting for a first contact

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    Metrics (see docs/metrics.md):

    - `speed_to_lead.waiting` (count): Leads created in the last withinMinutes minutes with no first
    contact yet.
    - `speed_to_lead.contacted_rate` (rate): Leads created in the last withinMinutes minutes already
    contacted / all of them. Null: empty-denominator when no lead was created in the window.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        within_minutes (Union[Unset, int]):  Default: 120.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, ListSpeedToLeadEnvelope]
    """

    return sync_detailed(
        client=client,
        within_minutes=within_minutes,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    within_minutes: Union[Unset, int] = 120,
) -> Response[Union[Error, ListSpeedToLeadEnvelope]]:
    """Leads still waiting for a first contact

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    Metrics (see docs/metrics.md):

    - `speed_to_lead.waiting` (count): Leads created in the last withinMinutes minutes with no first
    contact yet.
    - `speed_to_lead.contacted_rate` (rate): Leads created in the last withinMinutes minutes already
    contacted / all of them. Null: empty-denominator when no lead was created in the window.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        within_minutes (Union[Unset, int]):  Default: 120.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, ListSpeedToLeadEnvelope]]
    """

    kwargs = _get_kwargs(
        within_minutes=within_minutes,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    within_minutes: Union[Unset, int] = 120,
) -> Optional[Union[Error, ListSpeedToLeadEnvelope]]:
    """Leads still waiting for a first contact

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    Metrics (see docs/metrics.md):

    - `speed_to_lead.waiting` (count): Leads created in the last withinMinutes minutes with no first
    contact yet.
    - `speed_to_lead.contacted_rate` (rate): Leads created in the last withinMinutes minutes already
    contacted / all of them. Null: empty-denominator when no lead was created in the window.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        within_minutes (Union[Unset, int]):  Default: 120.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, ListSpeedToLeadEnvelope]
    """

    return (
        await asyncio_detailed(
            client=client,
            within_minutes=within_minutes,
        )
    ).parsed
