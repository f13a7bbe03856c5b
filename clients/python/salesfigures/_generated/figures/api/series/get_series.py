import datetime
from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.get_series_envelope import GetSeriesEnvelope
from ...models.get_series_interval import GetSeriesInterval
from ...models.get_series_metric import GetSeriesMetric
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    from_: Union[Unset, datetime.date] = UNSET,
    interval: Union[Unset, GetSeriesInterval] = UNSET,
    metric: GetSeriesMetric,
    to: Union[Unset, datetime.date] = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_from_: Union[Unset, str] = UNSET
    if not isinstance(from_, Unset):
        json_from_ = from_.isoformat()
    params["from"] = json_from_

    json_interval: Union[Unset, str] = UNSET
    if not isinstance(interval, Unset):
        json_interval = interval.value

    params["interval"] = json_interval

    json_metric = metric.value
    params["metric"] = json_metric

    json_to: Union[Unset, str] = UNSET
    if not isinstance(to, Unset):
        json_to = to.isoformat()
    params["to"] = json_to

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/series",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[Error, GetSeriesEnvelope]]:
    if response.status_code == 200:
        response_200 = GetSeriesEnvelope.from_dict(response.json())

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
) -> Response[Union[Error, GetSeriesEnvelope]]:
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
    interval: Union[Unset, GetSeriesInterval] = UNSET,
    metric: GetSeriesMetric,
    to: Union[Unset, datetime.date] = UNSET,
) -> Response[Union[Error, GetSeriesEnvelope]]:
    """One figure per day, week or month of the period

     Answers the Envelope: one figure of the metric registry per local day, week or month of the period,
    in `data.points`, oldest first. Each point's `field` is exactly what the metric's own endpoint
    answers for that point's days (the same aggregate, grouped in the database by the local day, week or
    month of the workspace timezone, right across daylight-saving changes). Every day, week or month of
    the period has a point: a count or money figure with no record is 0; a rate with an empty
    denominator is null with `unavailable.code` empty-denominator (and a figure-unavailable note). Notes
    of the points (figure-unavailable, awaiting-outcome) are lifted into `notes`.

    Metrics: `calls.booked`, `calls.cancelled`, `calls.taken`, `calls.no_show`,
    `calls.awaiting_outcome`, `calls.upcoming`, `calls.closed`, `calls.show_rate`, `calls.close_rate`,
    `calls.offer_rate`, `outcomes.closed`, `outcomes.deposit`, `outcomes.follow_up`, `outcomes.no_sale`,
    `outcomes.disqualified`, `outcomes.no_show`, `outcomes.cancelled`, `outcomes.awaiting`,
    `outcomes.total`, `payments.cash_collected`, `payments.refunded`, `payments.net_cash`,
    `payments.sales`, `payments.revenue_booked`, `payments.average_sale`, `payments.collection_rate`,
    `leads.created`, `acquisition.spend`, `acquisition.cost_per_lead`, `acquisition.roas`.

    Args:
        from_ (Union[Unset, datetime.date]):
        interval (Union[Unset, GetSeriesInterval]):
        metric (GetSeriesMetric):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, GetSeriesEnvelope]]
    """

    kwargs = _get_kwargs(
        from_=from_,
        interval=interval,
        metric=metric,
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
    interval: Union[Unset, GetSeriesInterval] = UNSET,
    metric: GetSeriesMetric,
    to: Union[Unset, datetime.date] = UNSET,
) -> Optional[Union[Error, GetSeriesEnvelope]]:
    """One figure per day, week or month of the period

     Answers the Envelope: one figure of the metric registry per local day, week or month of the period,
    in `data.points`, oldest first. Each point's `field` is exactly what the metric's own endpoint
    answers for that point's days (the same aggregate, grouped in the database by the local day, week or
    month of the workspace timezone, right across daylight-saving changes). Every day, week or month of
    the period has a point: a count or money figure with no record is 0; a rate with an empty
    denominator is null with `unavailable.code` empty-denominator (and a figure-unavailable note). Notes
    of the points (figure-unavailable, awaiting-outcome) are lifted into `notes`.

    Metrics: `calls.booked`, `calls.cancelled`, `calls.taken`, `calls.no_show`,
    `calls.awaiting_outcome`, `calls.upcoming`, `calls.closed`, `calls.show_rate`, `calls.close_rate`,
    `calls.offer_rate`, `outcomes.closed`, `outcomes.deposit`, `outcomes.follow_up`, `outcomes.no_sale`,
    `outcomes.disqualified`, `outcomes.no_show`, `outcomes.cancelled`, `outcomes.awaiting`,
    `outcomes.total`, `payments.cash_collected`, `payments.refunded`, `payments.net_cash`,
    `payments.sales`, `payments.revenue_booked`, `payments.average_sale`, `payments.collection_rate`,
    `leads.created`, `acquisition.spend`, `acquisition.cost_per_lead`, `acquisition.roas`.

    Args:
        from_ (Union[Unset, datetime.date]):
        interval (Union[Unset, GetSeriesInterval]):
        metric (GetSeriesMetric):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, GetSeriesEnvelope]
    """

    return sync_detailed(
        client=client,
        from_=from_,
        interval=interval,
        metric=metric,
        to=to,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    from_: Union[Unset, datetime.date] = UNSET,
    interval: Union[Unset, GetSeriesInterval] = UNSET,
    metric: GetSeriesMetric,
    to: Union[Unset, datetime.date] = UNSET,
) -> Response[Union[Error, GetSeriesEnvelope]]:
    """One figure per day, week or month of the period

     Answers the Envelope: one figure of the metric registry per local day, week or month of the period,
    in `data.points`, oldest first. Each point's `field` is exactly what the metric's own endpoint
    answers for that point's days (the same aggregate, grouped in the database by the local day, week or
    month of the workspace timezone, right across daylight-saving changes). Every day, week or month of
    the period has a point: a count or money figure with no record is 0; a rate with an empty
    denominator is null with `unavailable.code` empty-denominator (and a figure-unavailable note). Notes
    of the points (figure-unavailable, awaiting-outcome) are lifted into `notes`.

    Metrics: `calls.booked`, `calls.cancelled`, `calls.taken`, `calls.no_show`,
    `calls.awaiting_outcome`, `calls.upcoming`, `calls.closed`, `calls.show_rate`, `calls.close_rate`,
    `calls.offer_rate`, `outcomes.closed`, `outcomes.deposit`, `outcomes.follow_up`, `outcomes.no_sale`,
    `outcomes.disqualified`, `outcomes.no_show`, `outcomes.cancelled`, `outcomes.awaiting`,
    `outcomes.total`, `payments.cash_collected`, `payments.refunded`, `payments.net_cash`,
    `payments.sales`, `payments.revenue_booked`, `payments.average_sale`, `payments.collection_rate`,
    `leads.created`, `acquisition.spend`, `acquisition.cost_per_lead`, `acquisition.roas`.

    Args:
        from_ (Union[Unset, datetime.date]):
        interval (Union[Unset, GetSeriesInterval]):
        metric (GetSeriesMetric):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, GetSeriesEnvelope]]
    """

    kwargs = _get_kwargs(
        from_=from_,
        interval=interval,
        metric=metric,
        to=to,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    from_: Union[Unset, datetime.date] = UNSET,
    interval: Union[Unset, GetSeriesInterval] = UNSET,
    metric: GetSeriesMetric,
    to: Union[Unset, datetime.date] = UNSET,
) -> Optional[Union[Error, GetSeriesEnvelope]]:
    """One figure per day, week or month of the period

     Answers the Envelope: one figure of the metric registry per local day, week or month of the period,
    in `data.points`, oldest first. Each point's `field` is exactly what the metric's own endpoint
    answers for that point's days (the same aggregate, grouped in the database by the local day, week or
    month of the workspace timezone, right across daylight-saving changes). Every day, week or month of
    the period has a point: a count or money figure with no record is 0; a rate with an empty
    denominator is null with `unavailable.code` empty-denominator (and a figure-unavailable note). Notes
    of the points (figure-unavailable, awaiting-outcome) are lifted into `notes`.

    Metrics: `calls.booked`, `calls.cancelled`, `calls.taken`, `calls.no_show`,
    `calls.awaiting_outcome`, `calls.upcoming`, `calls.closed`, `calls.show_rate`, `calls.close_rate`,
    `calls.offer_rate`, `outcomes.closed`, `outcomes.deposit`, `outcomes.follow_up`, `outcomes.no_sale`,
    `outcomes.disqualified`, `outcomes.no_show`, `outcomes.cancelled`, `outcomes.awaiting`,
    `outcomes.total`, `payments.cash_collected`, `payments.refunded`, `payments.net_cash`,
    `payments.sales`, `payments.revenue_booked`, `payments.average_sale`, `payments.collection_rate`,
    `leads.created`, `acquisition.spend`, `acquisition.cost_per_lead`, `acquisition.roas`.

    Args:
        from_ (Union[Unset, datetime.date]):
        interval (Union[Unset, GetSeriesInterval]):
        metric (GetSeriesMetric):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, GetSeriesEnvelope]
    """

    return (
        await asyncio_detailed(
            client=client,
            from_=from_,
            interval=interval,
            metric=metric,
            to=to,
        )
    ).parsed
