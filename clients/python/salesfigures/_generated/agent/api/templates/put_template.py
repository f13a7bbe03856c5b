from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.blueprint import Blueprint
from ...models.blueprint_body_request import BlueprintBodyRequest
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    key: str,
    *,
    body: BlueprintBodyRequest,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/api/v1/templates/{key}".format(
            key=key,
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[Blueprint, Error]]:
    if response.status_code == 200:
        response_200 = Blueprint.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = Blueprint.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 402:
        response_402 = Error.from_dict(response.json())

        return response_402

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

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
) -> Response[Union[Blueprint, Error]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    key: str,
    *,
    client: AuthenticatedClient,
    body: BlueprintBodyRequest,
    idempotency_key: str,
) -> Response[Union[Blueprint, Error]]:
    """Create (201) or replace (200) the blueprint under the key

     Key: 1 to 64 of a-z, 0-9 and '-'. Body: `name` and a plan body without `workspace`. Needs the Agency
    plan or above (402).

    Args:
        key (str):
        idempotency_key (str):
        body (BlueprintBodyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Blueprint, Error]]
    """

    kwargs = _get_kwargs(
        key=key,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    key: str,
    *,
    client: AuthenticatedClient,
    body: BlueprintBodyRequest,
    idempotency_key: str,
) -> Optional[Union[Blueprint, Error]]:
    """Create (201) or replace (200) the blueprint under the key

     Key: 1 to 64 of a-z, 0-9 and '-'. Body: `name` and a plan body without `workspace`. Needs the Agency
    plan or above (402).

    Args:
        key (str):
        idempotency_key (str):
        body (BlueprintBodyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Blueprint, Error]
    """

    return sync_detailed(
        key=key,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    key: str,
    *,
    client: AuthenticatedClient,
    body: BlueprintBodyRequest,
    idempotency_key: str,
) -> Response[Union[Blueprint, Error]]:
    """Create (201) or replace (200) the blueprint under the key

     Key: 1 to 64 of a-z, 0-9 and '-'. Body: `name` and a plan body without `workspace`. Needs the Agency
    plan or above (402).

    Args:
        key (str):
        idempotency_key (str):
        body (BlueprintBodyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[Blueprint, Error]]
    """

    kwargs = _get_kwargs(
        key=key,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    key: str,
    *,
    client: AuthenticatedClient,
    body: BlueprintBodyRequest,
    idempotency_key: str,
) -> Optional[Union[Blueprint, Error]]:
    """Create (201) or replace (200) the blueprint under the key

     Key: 1 to 64 of a-z, 0-9 and '-'. Body: `name` and a plan body without `workspace`. Needs the Agency
    plan or above (402).

    Args:
        key (str):
        idempotency_key (str):
        body (BlueprintBodyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[Blueprint, Error]
    """

    return (
        await asyncio_detailed(
            key=key,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
