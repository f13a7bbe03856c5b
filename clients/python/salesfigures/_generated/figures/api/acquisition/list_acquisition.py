import datetime
from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.list_acquisition_by import ListAcquisitionBy
from ...models.list_acquisition_envelope import ListAcquisitionEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    by: Union[Unset, ListAcquisitionBy] = UNSET,
    from_: Union[Unset, datetime.date] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_by: Union[Unset, str] = UNSET
    if not isinstance(by, Unset):
        json_by = by.value

    params["by"] = json_by

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
        "url": "/api/v1/acquisition",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[Error, ListAcquisitionEnvelope]]:
    if response.status_code == 200:
        response_200 = ListAcquisitionEnvelope.from_dict(response.json())

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
) -> Response[Union[Error, ListAcquisitionEnvelope]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    by: Union[Unset, ListAcquisitionBy] = UNSET,
    from_: Union[Unset, datetime.date] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> Response[Union[Error, ListAcquisitionEnvelope]]:
    """Ad spend beside the leads, calls, closes and cash it bought, by source and campaign

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    The cohort is the leads created in the period (as /attribution) and the ad spend dated in the
    period. `data.rows` holds a row for every utm_source and utm_campaign (by=source: utm_source) with
    spend or leads in the period, missing values as `(none)`, ordered by spend, highest first, then
    leads, then the keys; `data.total` holds the same figures for the whole period (blended: all its
    leads, closes and cash against all its spend), and `data.paid` the same figures over the rows that
    have spend in the period (paid: what the ads bought). `acquisition.roas` is a return (cash collected
    / spend), a fraction with both sides that may exceed 1.

    Metrics (see docs/metrics.md):

    - `acquisition.spend` (money): Ad spend dated in the period (its day, a day of the workspace) with
    this utm_source (and utm_campaign); a missing value reads (none).
    - `acquisition.leads` (count): Leads created in the period with this first-touch utm_source (and
    utm_campaign).
    - `acquisition.booked` (count): Of these leads, those with at least one call that is not cancelled
    (to date; a call another call reschedules no longer counts, the final one does).
    - `acquisition.shows` (count): Of these leads, those with at least one call (not cancelled, not
    rescheduled) marked showed, to date.
    - `acquisition.closes` (count): Of these leads, those with a sale (to date), as attribution.closes.
    - `acquisition.cash_collected` (money): Succeeded payments to date on these leads' sales, as
    attribution.cash_collected.
    - `acquisition.cost_per_lead` (money): Ad spend / leads, rounded half up to the minor unit. Null:
    empty-denominator when no lead was created.
    - `acquisition.cost_per_booked_call` (money): Ad spend / leads booked, rounded half up to the minor
    unit. Null: empty-denominator when no lead booked a call.
    - `acquisition.cost_per_show` (money): Ad spend / leads who showed, rounded half up to the minor
    unit. Null: empty-denominator when no lead showed.
    - `acquisition.cost_per_close` (money): Ad spend / closes, rounded half up to the minor unit. Null:
    empty-denominator when no lead closed.
    - `acquisition.roas` (rate): Cash collected / ad spend, rounded half up to 4 decimals. A return, not
    a share: it exceeds 1 when the cash is more than the spend (2.5 is 2.50 back per 1.00 spent). Null:
    empty-denominator when there is no ad spend.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        by (Union[Unset, ListAcquisitionBy]):
        from_ (Union[Unset, datetime.date]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, ListAcquisitionEnvelope]]
    """

    kwargs = _get_kwargs(
        by=by,
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
    by: Union[Unset, ListAcquisitionBy] = UNSET,
    from_: Union[Unset, datetime.date] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> Optional[Union[Error, ListAcquisitionEnvelope]]:
    """Ad spend beside the leads, calls, closes and cash it bought, by source and campaign

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    The cohort is the leads created in the period (as /attribution) and the ad spend dated in the
    period. `data.rows` holds a row for every utm_source and utm_campaign (by=source: utm_source) with
    spend or leads in the period, missing values as `(none)`, ordered by spend, highest first, then
    leads, then the keys; `data.total` holds the same figures for the whole period (blended: all its
    leads, closes and cash against all its spend), and `data.paid` the same figures over the rows that
    have spend in the period (paid: what the ads bought). `acquisition.roas` is a return (cash collected
    / spend), a fraction with both sides that may exceed 1.

    Metrics (see docs/metrics.md):

    - `acquisition.spend` (money): Ad spend dated in the period (its day, a day of the workspace) with
    this utm_source (and utm_campaign); a missing value reads (none).
    - `acquisition.leads` (count): Leads created in the period with this first-touch utm_source (and
    utm_campaign).
    - `acquisition.booked` (count): Of these leads, those with at least one call that is not cancelled
    (to date; a call another call reschedules no longer counts, the final one does).
    - `acquisition.shows` (count): Of these leads, those with at least one call (not cancelled, not
    rescheduled) marked showed, to date.
    - `acquisition.closes` (count): Of these leads, those with a sale (to date), as attribution.closes.
    - `acquisition.cash_collected` (money): Succeeded payments to date on these leads' sales, as
    attribution.cash_collected.
    - `acquisition.cost_per_lead` (money): Ad spend / leads, rounded half up to the minor unit. Null:
    empty-denominator when no lead was created.
    - `acquisition.cost_per_booked_call` (money): Ad spend / leads booked, rounded half up to the minor
    unit. Null: empty-denominator when no lead booked a call.
    - `acquisition.cost_per_show` (money): Ad spend / leads who showed, rounded half up to the minor
    unit. Null: empty-denominator when no lead showed.
    - `acquisition.cost_per_close` (money): Ad spend / closes, rounded half up to the minor unit. Null:
    empty-denominator when no lead closed.
    - `acquisition.roas` (rate): Cash collected / ad spend, rounded half up to 4 decimals. A return, not
    a share: it exceeds 1 when the cash is more than the spend (2.5 is 2.50 back per 1.00 spent). Null:
    empty-denominator when there is no ad spend.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        by (Union[Unset, ListAcquisitionBy]):
        from_ (Union[Unset, datetime.date]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, ListAcquisitionEnvelope]
    """

    return sync_detailed(
        client=client,
        by=by,
        from_=from_,
        to=to,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    by: Union[Unset, ListAcquisitionBy] = UNSET,
    from_: Union[Unset, datetime.date] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> Response[Union[Error, ListAcquisitionEnvelope]]:
    """Ad spend beside the leads, calls, closes and cash it bought, by source and campaign

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    The cohort is the leads created in the period (as /attribution) and the ad spend dated in the
    period. `data.rows` holds a row for every utm_source and utm_campaign (by=source: utm_source) with
    spend or leads in the period, missing values as `(none)`, ordered by spend, highest first, then
    leads, then the keys; `data.total` holds the same figures for the whole period (blended: all its
    leads, closes and cash against all its spend), and `data.paid` the same figures over the rows that
    have spend in the period (paid: what the ads bought). `acquisition.roas` is a return (cash collected
    / spend), a fraction with both sides that may exceed 1.

    Metrics (see docs/metrics.md):

    - `acquisition.spend` (money): Ad spend dated in the period (its day, a day of the workspace) with
    this utm_source (and utm_campaign); a missing value reads (none).
    - `acquisition.leads` (count): Leads created in the period with this first-touch utm_source (and
    utm_campaign).
    - `acquisition.booked` (count): Of these leads, those with at least one call that is not cancelled
    (to date; a call another call reschedules no longer counts, the final one does).
    - `acquisition.shows` (count): Of these leads, those with at least one call (not cancelled, not
    rescheduled) marked showed, to date.
    - `acquisition.closes` (count): Of these leads, those with a sale (to date), as attribution.closes.
    - `acquisition.cash_collected` (money): Succeeded payments to date on these leads' sales, as
    attribution.cash_collected.
    - `acquisition.cost_per_lead` (money): Ad spend / leads, rounded half up to the minor unit. Null:
    empty-denominator when no lead was created.
    - `acquisition.cost_per_booked_call` (money): Ad spend / leads booked, rounded half up to the minor
    unit. Null: empty-denominator when no lead booked a call.
    - `acquisition.cost_per_show` (money): Ad spend / leads who showed, rounded half up to the minor
    unit. Null: empty-denominator when no lead showed.
    - `acquisition.cost_per_close` (money): Ad spend / closes, rounded half up to the minor unit. Null:
    empty-denominator when no lead closed.
    - `acquisition.roas` (rate): Cash collected / ad spend, rounded half up to 4 decimals. A return, not
    a share: it exceeds 1 when the cash is more than the spend (2.5 is 2.50 back per 1.00 spent). Null:
    empty-denominator when there is no ad spend.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        by (Union[Unset, ListAcquisitionBy]):
        from_ (Union[Unset, datetime.date]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, ListAcquisitionEnvelope]]
    """

    kwargs = _get_kwargs(
        by=by,
        from_=from_,
        to=to,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    by: Union[Unset, ListAcquisitionBy] = UNSET,
    from_: Union[Unset, datetime.date] = UNSET,
    to: Union[Unset, datetime.date] = UNSET,
) -> Optional[Union[Error, ListAcquisitionEnvelope]]:
    """Ad spend beside the leads, calls, closes and cash it bought, by source and campaign

     Answers the Envelope. The period is from..to in the workspace timezone, both days included. Unknown
    query parameters are ignored.

    The cohort is the leads created in the period (as /attribution) and the ad spend dated in the
    period. `data.rows` holds a row for every utm_source and utm_campaign (by=source: utm_source) with
    spend or leads in the period, missing values as `(none)`, ordered by spend, highest first, then
    leads, then the keys; `data.total` holds the same figures for the whole period (blended: all its
    leads, closes and cash against all its spend), and `data.paid` the same figures over the rows that
    have spend in the period (paid: what the ads bought). `acquisition.roas` is a return (cash collected
    / spend), a fraction with both sides that may exceed 1.

    Metrics (see docs/metrics.md):

    - `acquisition.spend` (money): Ad spend dated in the period (its day, a day of the workspace) with
    this utm_source (and utm_campaign); a missing value reads (none).
    - `acquisition.leads` (count): Leads created in the period with this first-touch utm_source (and
    utm_campaign).
    - `acquisition.booked` (count): Of these leads, those with at least one call that is not cancelled
    (to date; a call another call reschedules no longer counts, the final one does).
    - `acquisition.shows` (count): Of these leads, those with at least one call (not cancelled, not
    rescheduled) marked showed, to date.
    - `acquisition.closes` (count): Of these leads, those with a sale (to date), as attribution.closes.
    - `acquisition.cash_collected` (money): Succeeded payments to date on these leads' sales, as
    attribution.cash_collected.
    - `acquisition.cost_per_lead` (money): Ad spend / leads, rounded half up to the minor unit. Null:
    empty-denominator when no lead was created.
    - `acquisition.cost_per_booked_call` (money): Ad spend / leads booked, rounded half up to the minor
    unit. Null: empty-denominator when no lead booked a call.
    - `acquisition.cost_per_show` (money): Ad spend / leads who showed, rounded half up to the minor
    unit. Null: empty-denominator when no lead showed.
    - `acquisition.cost_per_close` (money): Ad spend / closes, rounded half up to the minor unit. Null:
    empty-denominator when no lead closed.
    - `acquisition.roas` (rate): Cash collected / ad spend, rounded half up to 4 decimals. A return, not
    a share: it exceeds 1 when the cash is more than the spend (2.5 is 2.50 back per 1.00 spent). Null:
    empty-denominator when there is no ad spend.

    notes[].code: `figure-unavailable`, `awaiting-outcome`, `truncated`, `period-in-future`, `no-data-
    source`, `unplaced-events`.

    Args:
        by (Union[Unset, ListAcquisitionBy]):
        from_ (Union[Unset, datetime.date]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, ListAcquisitionEnvelope]
    """

    return (
        await asyncio_detailed(
            client=client,
            by=by,
            from_=from_,
            to=to,
        )
    ).parsed
