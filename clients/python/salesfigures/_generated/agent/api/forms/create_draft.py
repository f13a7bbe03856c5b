from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.draft import Draft
from ...models.draft_create_request import DraftCreateRequest
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    *,
    body: DraftCreateRequest,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/forms/drafts",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[Draft, Error]]:
    if response.status_code == 201:
        response_201 = Draft.from_dict(response.json())

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
) -> Response[Union[Draft, Error]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: DraftCreateRequest,
    idempotency_key: str,
) -> Response[Union[Draft, Error]]:
    """Propose a draft of a form for a member to check

     form (post-call, past-call, dm-close or eod), member_id (who must check it; with a session token it
    defaults to the signed-in member, and a closer, setter or SDR may propose only for themselves: else
    403 refused.member_scope) and fields (the form's own members, any may be left out). A draft never
    carries money: any member anywhere in fields named cash_collected, contract_value, payment_plan or
    instalments, or whose name contains cash, revenue, payment or instalment, answers 422
    refused.cash_figures naming it, before any other check of fields. An unknown member_id answers 404.
    Idempotent on the Idempotency-Key header.

    Args:
        idempotency_key (str):
        body (DraftCreateRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Draft, Error]]
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
    body: DraftCreateRequest,
    idempotency_key: str,
) -> Optional[Union[Draft, Error]]:
    """Propose a draft of a form for a member to check

     form (post-call, past-call, dm-close or eod), member_id (who must check it; with a session token it
    defaults to the signed-in member, and a closer, setter or SDR may propose only for themselves: else
    403 refused.member_scope) and fields (the form's own members, any may be left out). A draft never
    carries money: any member anywhere in fields named cash_collected, contract_value, payment_plan or
    instalments, or whose name contains cash, revenue, payment or instalment, answers 422
    refused.cash_figures naming it, before any other check of fields. An unknown member_id answers 404.
    Idempotent on the Idempotency-Key header.

    Args:
        idempotency_key (str):
        body (DraftCreateRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Draft, Error]
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: DraftCreateRequest,
    idempotency_key: str,
) -> Response[Union[Draft, Error]]:
    """Propose a draft of a form for a member to check

     form (post-call, past-call, dm-close or eod), member_id (who must check it; with a session token it
    defaults to the signed-in member, and a closer, setter or SDR may propose only for themselves: else
    403 refused.member_scope) and fields (the form's own members, any may be left out). A draft never
    carries money: any member anywhere in fields named cash_collected, contract_value, payment_plan or
    instalments, or whose name contains cash, revenue, payment or instalment, answers 422
    refused.cash_figures naming it, before any other check of fields. An unknown member_id answers 404.
    Idempotent on the Idempotency-Key header.

    Args:
        idempotency_key (str):
        body (DraftCreateRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Draft, Error]]
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
    body: DraftCreateRequest,
    idempotency_key: str,
) -> Optional[Union[Draft, Error]]:
    """Propose a draft of a form for a member to check

     form (post-call, past-call, dm-close or eod), member_id (who must check it; with a session token it
    defaults to the signed-in member, and a closer, setter or SDR may propose only for themselves: else
    403 refused.member_scope) and fields (the form's own members, any may be left out). A draft never
    carries money: any member anywhere in fields named cash_collected, contract_value, payment_plan or
    instalments, or whose name contains cash, revenue, payment or instalment, answers 422
    refused.cash_figures naming it, before any other check of fields. An unknown member_id answers 404.
    Idempotent on the Idempotency-Key header.

    Args:
        idempotency_key (str):
        body (DraftCreateRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Draft, Error]
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
