import datetime
from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.board_envelope import BoardEnvelope
from ...models.error import Error
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
        "url": "/api/v1/me/board",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[BoardEnvelope, Error]]:
    if response.status_code == 200:
        response_200 = BoardEnvelope.from_dict(response.json())

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
) -> Response[Union[BoardEnvelope, Error]]:
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
) -> Response[Union[BoardEnvelope, Error]]:
    """The signed-in member's own figures

     The member's calls as closer or setter, closes, cash, commission owed and EOD compliance for the
    period, in the Envelope of the figures API. Needs a member's session token (any role); an API token
    gets 403 refused.drafts_only.

    Args:
        from_ (Union[Unset, datetime.date]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[BoardEnvelope, Error]]
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
) -> Optional[Union[BoardEnvelope, Error]]:
    """The signed-in member's own figures

     The member's calls as closer or setter, closes, cash, commission owed and EOD compliance for the
    period, in the Envelope of the figures API. Needs a member's session token (any role); an API token
    gets 403 refused.drafts_only.

    Args:
        from_ (Union[Unset, datetime.date]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[BoardEnvelope, Error]
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
) -> Response[Union[BoardEnvelope, Error]]:
    """The signed-in member's own figures

     The member's calls as closer or setter, closes, cash, commission owed and EOD compliance for the
    period, in the Envelope of the figures API. Needs a member's session token (any role); an API token
    gets 403 refused.drafts_only.

    Args:
        from_ (Union[Unset, datetime.date]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[BoardEnvelope, Error]]
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
) -> Optional[Union[BoardEnvelope, Error]]:
    """The signed-in member's own figures

     The member's calls as closer or setter, closes, cash, commission owed and EOD compliance for the
    period, in the Envelope of the figures API. Needs a member's session token (any role); an API token
    gets 403 refused.drafts_only.

    Args:
        from_ (Union[Unset, datetime.date]):
        to (Union[Unset, datetime.date]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[BoardEnvelope, Error]
    """

    return (
        await asyncio_detailed(
            client=client,
            from_=from_,
            to=to,
        )
    ).parsed
