from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.eod_answer import EodAnswer
from ...models.eod_form_request import EodFormRequest
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    *,
    body: EodFormRequest,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/forms/eod",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[EodAnswer, Error]]:
    if response.status_code == 200:
        response_200 = EodAnswer.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = EodAnswer.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

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
) -> Response[Union[EodAnswer, Error]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: EodFormRequest,
    idempotency_key: str,
) -> Response[Union[EodAnswer, Error]]:
    """File the member's end-of-day report

     date (the local day in the workspace timezone; default today there, never after it) and fields:
    counts (whole numbers from 0) and text by snake_case name. One report per member per day: the first
    filing answers 201, a later one for the same day replaces its fields and answers 200 with edited:
    true. submission_id is optional here. Needs a member's session token with `data:write` (any role);
    an API token gets 403 refused.drafts_only and may propose a draft instead. Money is a decimal string
    or number in major units of the workspace currency with no more decimals than it has; unknown
    members answer 400 naming them. Filing with draft_id closes that draft (it must be the member's own
    and still open: another's is 404, a filed one 409 refused.draft_closed). submission_id identifies
    the filing: a second filing with it answers the first answer (with Idempotent-Replayed: true),
    whatever its body; one used for another member or form answers 422 refused.submission_id_reused.

    Args:
        idempotency_key (str):
        body (EodFormRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[EodAnswer, Error]]
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
    body: EodFormRequest,
    idempotency_key: str,
) -> Optional[Union[EodAnswer, Error]]:
    """File the member's end-of-day report

     date (the local day in the workspace timezone; default today there, never after it) and fields:
    counts (whole numbers from 0) and text by snake_case name. One report per member per day: the first
    filing answers 201, a later one for the same day replaces its fields and answers 200 with edited:
    true. submission_id is optional here. Needs a member's session token with `data:write` (any role);
    an API token gets 403 refused.drafts_only and may propose a draft instead. Money is a decimal string
    or number in major units of the workspace currency with no more decimals than it has; unknown
    members answer 400 naming them. Filing with draft_id closes that draft (it must be the member's own
    and still open: another's is 404, a filed one 409 refused.draft_closed). submission_id identifies
    the filing: a second filing with it answers the first answer (with Idempotent-Replayed: true),
    whatever its body; one used for another member or form answers 422 refused.submission_id_reused.

    Args:
        idempotency_key (str):
        body (EodFormRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[EodAnswer, Error]
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: EodFormRequest,
    idempotency_key: str,
) -> Response[Union[EodAnswer, Error]]:
    """File the member's end-of-day report

     date (the local day in the workspace timezone; default today there, never after it) and fields:
    counts (whole numbers from 0) and text by snake_case name. One report per member per day: the first
    filing answers 201, a later one for the same day replaces its fields and answers 200 with edited:
    true. submission_id is optional here. Needs a member's session token with `data:write` (any role);
    an API token gets 403 refused.drafts_only and may propose a draft instead. Money is a decimal string
    or number in major units of the workspace currency with no more decimals than it has; unknown
    members answer 400 naming them. Filing with draft_id closes that draft (it must be the member's own
    and still open: another's is 404, a filed one 409 refused.draft_closed). submission_id identifies
    the filing: a second filing with it answers the first answer (with Idempotent-Replayed: true),
    whatever its body; one used for another member or form answers 422 refused.submission_id_reused.

    Args:
        idempotency_key (str):
        body (EodFormRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[EodAnswer, Error]]
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
    body: EodFormRequest,
    idempotency_key: str,
) -> Optional[Union[EodAnswer, Error]]:
    """File the member's end-of-day report

     date (the local day in the workspace timezone; default today there, never after it) and fields:
    counts (whole numbers from 0) and text by snake_case name. One report per member per day: the first
    filing answers 201, a later one for the same day replaces its fields and answers 200 with edited:
    true. submission_id is optional here. Needs a member's session token with `data:write` (any role);
    an API token gets 403 refused.drafts_only and may propose a draft instead. Money is a decimal string
    or number in major units of the workspace currency with no more decimals than it has; unknown
    members answer 400 naming them. Filing with draft_id closes that draft (it must be the member's own
    and still open: another's is 404, a filed one 409 refused.draft_closed). submission_id identifies
    the filing: a second filing with it answers the first answer (with Idempotent-Replayed: true),
    whatever its body; one used for another member or form answers 422 refused.submission_id_reused.

    Args:
        idempotency_key (str):
        body (EodFormRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[EodAnswer, Error]
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
