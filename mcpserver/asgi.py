"""The /mcp endpoint: the first checks of the order in docs/errors.md, then the MCP transport.

Before any MCP message is read, the request's bearer token is authenticated for the
audience {BASE_URL}/mcp (a session token issued for /api/v1 is refused here, as one
issued for /mcp is refused there) and the browser rules apply: 401 `unauthenticated`
with a WWW-Authenticate challenge naming this resource's metadata document (RFC 9728),
403 `refused.token_in_browser` or `refused.origin`, in the service's error shape. Kind,
scope, role, 404s and 400s are the operation's own, answered as tool errors.

The transport is the `mcp` library's streamable HTTP, stateless and answering JSON:
each POST is a whole exchange, so any worker process can answer any request.
"""

from __future__ import annotations

import json
from contextlib import AsyncExitStack

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections
from django.http.request import split_domain_port, validate_host
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings

from core.errors import (
    ApiError,
    BodyTooLarge,
    MethodNotAllowed,
    Unauthenticated,
    Unavailable,
)
from core.throttling import rate_count
from core.views import check_browser
from tokens.authentication import authenticate_bearer, bearer_credential

from .catalog import tool_catalog
from .dispatch import Caller
from .server import CALLER_SCOPE_KEY, server_build

RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource/mcp"

# The paths the endpoint answers; every other path is Django's.
MCP_PATHS = frozenset({"/mcp", "/mcp/"})


def resource_metadata_url() -> str:
    return f"{settings.BASE_URL}{RESOURCE_METADATA_PATH}"


def caller_authenticate(headers: dict[str, str], client: str, scheme: str) -> Caller:
    """The caller of one request to /mcp, or the ApiError that refuses it."""
    close_old_connections()
    try:
        raw = bearer_credential(headers.get("authorization"))
        if raw is None:
            raise Unauthenticated()
        try:
            principal = authenticate_bearer(raw, audience=settings.MCP_AUDIENCE)
        except (OperationalError, InterfaceError):
            raise Unavailable() from None
        check_browser(
            principal, origin=headers.get("origin"), fetch_site=headers.get("sec-fetch-site")
        )
        return Caller(
            principal=principal, host=headers.get("host", ""), scheme=scheme, address=client
        )
    finally:
        close_old_connections()


def client_address(headers: dict[str, str], peer: str) -> str:
    """The client's address as the API's request rates read it: the peer's, or behind
    NUM_PROXIES reverse proxies the one the outermost of them saw."""
    proxies = settings.NUM_PROXIES
    forwarded = [part.strip() for part in headers.get("x-forwarded-for", "").split(",")]
    forwarded = [part for part in forwarded if part]
    if proxies > 0 and forwarded:
        return forwarded[-min(proxies, len(forwarded))]
    return peer


def _not_a_number(constant: str):
    raise ValueError(f"{constant} is not a JSON number")


async def _body_read(receive) -> bytes | None:
    """The whole request body, or None once it passes the service's body limit."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    chunks, size, more = [], 0, True
    while more:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        more = message.get("more_body", False)
    return b"".join(chunks)


def _replay(body: bytes):
    sent = False

    async def receive():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    return receive


async def _jsonrpc_parse_error(send, message: str) -> None:
    body = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": message}}
    headers = [(b"content-type", b"application/json"), (b"cache-control", b"no-store")]
    await send({"type": "http.response.start", "status": 400, "headers": headers})
    await send({"type": "http.response.body", "body": json.dumps(body).encode()})


async def _refuse(send, error: ApiError, allow: str | None = None) -> None:
    headers = [(b"content-type", b"application/json"), (b"cache-control", b"no-store")]
    if allow is not None:
        headers.append((b"allow", allow.encode()))
    retry_after = getattr(error, "retry_after", None)
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    if error.status_code == 401:
        challenge = f'Bearer resource_metadata="{resource_metadata_url()}"'
        headers.append((b"www-authenticate", challenge.encode()))
    await send({"type": "http.response.start", "status": error.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": json.dumps(error.body()).encode()})


async def _counted_refusal(refused: ApiError, client: str) -> ApiError:
    """A request without an accepted token counts against its address, as on the API; past
    the rate it is refused as rate-limited rather than unauthenticated."""
    state = await sync_to_async(rate_count, thread_sensitive=False)(
        "anonymous", f"address:{client}"
    )
    if state is None or state.allowed:
        return refused
    return state.refusal()


class McpEndpoint:
    """An ASGI app serving /mcp; it needs the ASGI lifespan (see lifespan())."""

    def __init__(self):
        self.server = server_build()
        self.session_manager: StreamableHTTPSessionManager | None = None
        self._exit_stack: AsyncExitStack | None = None

    async def startup(self) -> None:
        # A manager runs once: each start of the server (a test's too) gets its own.
        self.session_manager = StreamableHTTPSessionManager(
            app=self.server,
            json_response=True,
            stateless=True,
            # Origins and hosts are checked here, by the service's own rules.
            security_settings=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        )
        self._exit_stack = AsyncExitStack()
        await self._exit_stack.enter_async_context(self.session_manager.run())
        # The tool catalog is read from the API descriptions once per process: now, not
        # during the first call.
        await sync_to_async(tool_catalog, thread_sensitive=False)()

    async def shutdown(self) -> None:
        if self._exit_stack is not None:
            await self._exit_stack.aclose()
            self._exit_stack = None

    async def __call__(self, scope, receive, send) -> None:
        headers = {
            key.decode("latin-1"): value.decode("latin-1") for key, value in scope["headers"]
        }
        host, _ = split_domain_port(headers.get("host", ""))
        if not host or not validate_host(host, settings.ALLOWED_HOSTS):
            await _refuse(send, ApiError("The Host header names no host served here."))
            return
        client = client_address(headers, (scope.get("client") or ("", 0))[0])
        try:
            caller = await sync_to_async(caller_authenticate, thread_sensitive=False)(
                headers, client, scope.get("scheme", "http")
            )
        except Unavailable as down:
            await _refuse(send, down)
            return
        except ApiError as refused:
            await _refuse(send, await _counted_refusal(refused, client))
            return
        if scope["method"] != "POST":
            # Stateless: no stream to open with GET, no session to end with DELETE.
            error = MethodNotAllowed(
                f"Method {scope['method']} is not allowed here: send MCP messages with POST."
            )
            await _refuse(send, error, allow="POST")
            return
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            await _refuse(send, BodyTooLarge())
            return
        body = await _body_read(receive)
        if body is None:
            await _refuse(send, BodyTooLarge())
            return
        try:
            # JSON as the standard has it: NaN and Infinity are no numbers (an id of NaN
            # would be answered as a notification).
            json.loads(body, parse_constant=_not_a_number)
        except (ValueError, RecursionError) as error:
            await _jsonrpc_parse_error(send, f"Parse error: {error}"[:300])
            return
        await self.session_manager.handle_request(
            {**scope, CALLER_SCOPE_KEY: caller}, _replay(body), send
        )
