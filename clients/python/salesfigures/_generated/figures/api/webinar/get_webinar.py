import datetime
from http import HTTPStatus
from typing import Any, Optional, Union
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.get_webinar_envelope import GetWebinarEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    event_id: Union[Unset, UUID] = UNSET,
    from_: Union[Unset, datetime.date] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_event_id: Union[Unset, str] = UNSET
    if not isinstance(event_id, Unset):
        json_event_id = str(event_id)
    params["eventId"] = json_event_id

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
        "url": "/api/v1/webinar",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[Error, GetWebinarEnvelope]]:
    if response.status_code == 200:
        response_200 = GetWebinarEnvelope.from_dict(response.json())

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
) -> Response[Union[Error, GetWebinarEnvelope]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    event_id: Union[Unset, UUID] = UNSET,
    from_: Union[Unset, datetime.date] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> Response[Union[Error, GetWebinarEnvelope]]:
    """Registrations, attendance, stay to pitch and bookings

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    Metrics (see docs/metrics.md):

    - `webinar.registrations` (count): Cohort: registrations for the events that start in the period (or
    the one eventId).
    - `webinar.attended` (count): Registrations that joined at least once.
    - `webinar.stayed_to_pitch` (count): Attended registrations still present at the event's pitch time:
    joined at or before it and not left by then. Null: no-numerator when an attended event has no pitch
    time.
    - `webinar.booked` (count): Attended registrations whose lead booked a call after the event started.
    - `webinar.attendance_rate` (rate): Attended / registrations. Null: empty-denominator when there is
    no registration.
    - `webinar.stay_rate` (rate): Stayed to pitch / attended. Null: no-numerator when an attended event
    has no pitch time; empty-denominator when nobody attended.
    - `webinar.booking_rate` (rate): Booked after the webinar / attended. Null: empty-denominator when
    nobody attended.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        event_id (Union[Unset, UUID]):
        from_ (Union[Unset, datetime.date]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, GetWebinarEnvelope]]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
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
    event_id: Union[Unset, UUID] = UNSET,
    from_: Union[Unset, datetime.date] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> Optional[Union[Error, GetWebinarEnvelope]]:
    """Registrations, attendance, stay to pitch and bookings

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    Metrics (see docs/metrics.md):

    - `webinar.registrations` (count): Cohort: registrations for the events that start in the period (or
    the one eventId).
    - `webinar.attended` (count): Registrations that joined at least once.
    - `webinar.stayed_to_pitch` (count): Attended registrations still present at the event's pitch time:
    joined at or before it and not left by then. Null: no-numerator when an attended event has no pitch
    time.
    - `webinar.booked` (count): Attended registrations whose lead booked a call after the event started.
    - `webinar.attendance_rate` (rate): Attended / registrations. Null: empty-denominator when there is
    no registration.
    - `webinar.stay_rate` (rate): Stayed to pitch / attended. Null: no-numerator when an attended event
    has no pitch time; empty-denominator when nobody attended.
    - `webinar.booking_rate` (rate): Booked after the webinar / attended. Null: empty-denominator when
    nobody attended.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        event_id (Union[Unset, UUID]):
        from_ (Union[Unset, datetime.date]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, GetWebinarEnvelope]
    """

    return sync_detailed(
        client=client,
        event_id=event_id,
        from_=from_,
        to=to,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    event_id: Union[Unset, UUID] = UNSET,
    from_: Union[Unset, datetime.date] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> Response[Union[Error, GetWebinarEnvelope]]:
    """Registrations, attendance, stay to pitch and bookings

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    Metrics (see docs/metrics.md):

    - `webinar.registrations` (count): Cohort: registrations for the events that start in the period (or
    the one eventId).
    - `webinar.attended` (count): Registrations that joined at least once.
    - `webinar.stayed_to_pitch` (count): Attended registrations still present at the event's pitch time:
    joined at or before it and not left by then. Null: no-numerator when an attended event has no pitch
    time.
    - `webinar.booked` (count): Attended registrations whose lead booked a call after the event started.
    - `webinar.attendance_rate` (rate): Attended / registrations. Null: empty-denominator when there is
    no registration.
    - `webinar.stay_rate` (rate): Stayed to pitch / attended. Null: no-numerator when an attended event
    has no pitch time; empty-denominator when nobody attended.
    - `webinar.booking_rate` (rate): Booked after the webinar / attended. Null: empty-denominator when
    nobody attended.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        event_id (Union[Unset, UUID]):
        from_ (Union[Unset, datetime.date]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, GetWebinarEnvelope]]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
        from_=from_,
        to=to,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    event_id: Union[Unset, UUID] = UNSET,
    from_: Union[Unset, datetime.date] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> Optional[Union[Error, GetWebinarEnvelope]]:
    """Registrations, attendance, stay to pitch and bookings

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    Metrics (see docs/metrics.md):

    - `webinar.registrations` (count): Cohort: registrations for the events that start in the period (or
    the one eventId).
    - `webinar.attended` (count): Registrations that joined at least once.
    - `webinar.stayed_to_pitch` (count): Attended registrations still present at the event's pitch time:
    joined at or before it and not left by then. Null: no-numerator when an attended event has no pitch
    time.
    - `webinar.booked` (count): Attended registrations whose lead booked a call after the event started.
    - `webinar.attendance_rate` (rate): Attended / registrations. Null: empty-denominator when there is
    no registration.
    - `webinar.stay_rate` (rate): Stayed to pitch / attended. Null: no-numerator when an attended event
    has no pitch time; empty-denominator when nobody attended.
    - `webinar.booking_rate` (rate): Booked after the webinar / attended. Null: empty-denominator when
    nobody attended.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        event_id (Union[Unset, UUID]):
        from_ (Union[Unset, datetime.date]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, GetWebinarEnvelope]
    """

    return (
        await asyncio_detailed(
            client=client,
            event_id=event_id,
            from_=from_,
            to=to,
        )
    ).parsed
