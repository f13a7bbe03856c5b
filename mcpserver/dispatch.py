"""A tool call is the REST operation it names, run in-process through its own view.

The view runs the checks of docs/errors.md's order (kind, scope, role, workspace, 404s,
400s), the request rates, the idempotency of docs/errors.md ("Idempotent writes"), the selectors and services, and
renders the same JSON as over HTTP. The MCP endpoint has already authenticated the
caller for its own audience and applied the browser rules; it hands the view that
principal instead of the raw token.
"""

from __future__ import annotations

import json
import logging
import uuid
from dataclasses import dataclass
from io import BytesIO
from urllib.parse import urlencode

from django.core.handlers.wsgi import WSGIRequest
from django.db import InterfaceError, OperationalError, close_old_connections
from django.urls import Resolver404, resolve

from core.errors import ApiError, NotFound, Unavailable
from tokens.authentication import AUTHENTICATED_PRINCIPAL
from tokens.principal import Principal

from .catalog import IDEMPOTENCY_KEY, WORKSPACE_ID, Operation, ToolSpec

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Caller:
    """Who calls, and from where: what the view would read from the HTTP request."""

    principal: Principal
    host: str
    scheme: str
    address: str


@dataclass(frozen=True)
class Answer:
    status: int
    body: object
    replayed: bool = False

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


def _query_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list):
        return json.dumps(value)
    return str(value)


def _path(operation: Operation, arguments: dict) -> str:
    path = operation.path
    for name in operation.path_params:
        value = arguments.get(name)
        if value is None:
            value = ""
        path = path.replace("{" + name + "}", str(value))
    return path


def _request(operation: Operation, arguments: dict, caller: Caller) -> WSGIRequest:
    query = {
        name: _query_value(arguments[name])
        for name in operation.query_params
        if arguments.get(name) is not None
    }
    body = b""
    environ = {
        "REQUEST_METHOD": operation.method,
        "SCRIPT_NAME": "",
        "PATH_INFO": _path(operation, arguments),
        "QUERY_STRING": urlencode(query),
        "SERVER_NAME": caller.host.rsplit(":", 1)[0],
        "SERVER_PORT": caller.host.rsplit(":", 1)[1] if ":" in caller.host else "80",
        "HTTP_HOST": caller.host,
        "REMOTE_ADDR": caller.address,
        "wsgi.url_scheme": caller.scheme,
        "SERVER_PROTOCOL": "HTTP/1.1",
    }
    if operation.method == "POST":
        taken = {IDEMPOTENCY_KEY, WORKSPACE_ID, *operation.path_params, *operation.query_params}
        body = json.dumps(
            {name: value for name, value in arguments.items() if name not in taken}
        ).encode()
        environ["CONTENT_TYPE"] = "application/json"
        # Optional here: without one, the write runs once, unprotected against a retry.
        environ["HTTP_IDEMPOTENCY_KEY"] = str(arguments.get(IDEMPOTENCY_KEY) or uuid.uuid4())
    environ["CONTENT_LENGTH"] = str(len(body))
    environ["wsgi.input"] = BytesIO(body)
    request = WSGIRequest(environ)
    setattr(request, AUTHENTICATED_PRINCIPAL, caller.principal)
    return request


def _run(request: WSGIRequest) -> Answer:
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return Answer(404, NotFound().body())
    response = match.func(request, *match.args, **match.kwargs)
    if hasattr(response, "render"):
        response.render()
    return Answer(
        status=response.status_code,
        body=json.loads(response.content) if response.content else None,
        replayed=response.get("Idempotent-Replayed") == "true",
    )


def operation_call(*, spec: ToolSpec, arguments: dict, caller: Caller) -> Answer:
    """Run the tool's operation as the caller; the answer is the REST answer's status and JSON."""
    operation = spec.operation
    if spec.workspace_operation is not None and arguments.get(WORKSPACE_ID) is not None:
        operation = spec.workspace_operation
    close_old_connections()
    try:
        return _run(_request(operation, arguments, caller))
    except (OperationalError, InterfaceError):
        logger.warning("tool %s: the database cannot be reached", spec.name)
        return Answer(Unavailable.status_code, Unavailable().body())
    except Exception:
        logger.exception("tool %s failed", spec.name)
        error = ApiError("Something went wrong on our side; try again.", reason="server_error")
        return Answer(500, error.body())
    finally:
        close_old_connections()
