from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.post_call_answer import PostCallAnswer
from ...models.post_call_form_request import PostCallFormRequest
from ...types import Response


def _get_kwargs(
    *,
    body: PostCallFormRequest,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/forms/post-call",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[Error, PostCallAnswer]]:
    if response.status_code == 201:
        response_201 = PostCallAnswer.from_dict(response.json())

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
) -> Response[Union[Error, PostCallAnswer]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PostCallFormRequest,
    idempotency_key: str,
) -> Response[Union[Error, PostCallAnswer]]:
    """File a post-call form

     What happened on a booked call: attendance (showed|no_show), the outcome (required when showed; none
    for a no-show), offer_made, reason, notes, and for closed or deposit the sale (contract_value
    required, cash_collected, payment_plan, instalments). Sets the call's attendance and offer, records
    an outcome (the call's outcome becomes its latest), and for a sale records it with its instalments
    and a succeeded payment for cash_collected. The member must hold the call's closer or setter slot,
    else 403 refused.member_scope; an unknown call_id answers 404; a cancelled or rescheduled call 400.
    Needs a member's session token with `data:write` (any role); an API token gets 403
    refused.drafts_only and may propose a draft instead. Money is a decimal string or number in major
    units of the workspace currency with no more decimals than it has; unknown members answer 400 naming
    them. Filing with draft_id closes that draft (it must be the member's own and still open: another's
    is 404, a filed one 409 refused.draft_closed). submission_id identifies the filing: a second filing
    with it answers the first answer (with Idempotent-Replayed: true), whatever its body; one used for
    another member or form answers 422 refused.submission_id_reused.

    Args:
        idempotency_key (str):
        body (PostCallFormRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, PostCallAnswer]]
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
    body: PostCallFormRequest,
    idempotency_key: str,
) -> Optional[Union[Error, PostCallAnswer]]:
    """File a post-call form

     What happened on a booked call: attendance (showed|no_show), the outcome (required when showed; none
    for a no-show), offer_made, reason, notes, and for closed or deposit the sale (contract_value
    required, cash_collected, payment_plan, instalments). Sets the call's attendance and offer, records
    an outcome (the call's outcome becomes its latest), and for a sale records it with its instalments
    and a succeeded payment for cash_collected. The member must hold the call's closer or setter slot,
    else 403 refused.member_scope; an unknown call_id answers 404; a cancelled or rescheduled call 400.
    Needs a member's session token with `data:write` (any role); an API token gets 403
    refused.drafts_only and may propose a draft instead. Money is a decimal string or number in major
    units of the workspace currency with no more decimals than it has; unknown members answer 400 naming
    them. Filing with draft_id closes that draft (it must be the member's own and still open: another's
    is 404, a filed one 409 refused.draft_closed). submission_id identifies the filing: a second filing
    with it answers the first answer (with Idempotent-Replayed: true), whatever its body; one used for
    another member or form answers 422 refused.submission_id_reused.

    Args:
        idempotency_key (str):
        body (PostCallFormRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, PostCallAnswer]
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PostCallFormRequest,
    idempotency_key: str,
) -> Response[Union[Error, PostCallAnswer]]:
    """File a post-call form

     What happened on a booked call: attendance (showed|no_show), the outcome (required when showed; none
    for a no-show), offer_made, reason, notes, and for closed or deposit the sale (contract_value
    required, cash_collected, payment_plan, instalments). Sets the call's attendance and offer, records
    an outcome (the call's outcome becomes its latest), and for a sale records it with its instalments
    and a succeeded payment for cash_collected. The member must hold the call's closer or setter slot,
    else 403 refused.member_scope; an unknown call_id answers 404; a cancelled or rescheduled call 400.
    Needs a member's session token with `data:write` (any role); an API token gets 403
    refused.drafts_only and may propose a draft instead. Money is a decimal string or number in major
    units of the workspace currency with no more decimals than it has; unknown members answer 400 naming
    them. Filing with draft_id closes that draft (it must be the member's own and still open: another's
    is 404, a filed one 409 refused.draft_closed). submission_id identifies the filing: a second filing
    with it answers the first answer (with Idempotent-Replayed: true), whatever its body; one used for
    another member or form answers 422 refused.submission_id_reused.

    Args:
        idempotency_key (str):
        body (PostCallFormRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Error, PostCallAnswer]]
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
    body: PostCallFormRequest,
    idempotency_key: str,
) -> Optional[Union[Error, PostCallAnswer]]:
    """File a post-call form

     What happened on a booked call: attendance (showed|no_show), the outcome (required when showed; none
    for a no-show), offer_made, reason, notes, and for closed or deposit the sale (contract_value
    required, cash_collected, payment_plan, instalments). Sets the call's attendance and offer, records
    an outcome (the call's outcome becomes its latest), and for a sale records it with its instalments
    and a succeeded payment for cash_collected. The member must hold the call's closer or setter slot,
    else 403 refused.member_scope; an unknown call_id answers 404; a cancelled or rescheduled call 400.
    Needs a member's session token with `data:write` (any role); an API token gets 403
    refused.drafts_only and may propose a draft instead. Money is a decimal string or number in major
    units of the workspace currency with no more decimals than it has; unknown members answer 400 naming
    them. Filing with draft_id closes that draft (it must be the member's own and still open: another's
    is 404, a filed one 409 refused.draft_closed). submission_id identifies the filing: a second filing
    with it answers the first answer (with Idempotent-Replayed: true), whatever its body; one used for
    another member or form answers 422 refused.submission_id_reused.

    Args:
        idempotency_key (str):
        body (PostCallFormRequest): Refuses members it does not name.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Error, PostCallAnswer]
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
