"""Every answer of an API route, checked against the description the service serves for it.

The figures description (/api/v1/openapi.json) and the agent description
(/openapi/agent.json) are fetched from the service once per run. An answer is checked for
the operation its path and method name: its status must be documented there, its content
type too, and its body must validate against the documented schema (headers as well, where
the description names them). A method the path does not describe must answer 405 in the
error shape; a path neither description holds must answer 404 in the error shape.
"""

import json
import re
from functools import cache

from django.test import Client
from openapi_core import OpenAPI
from openapi_core.testing import MockRequest, MockResponse
from openapi_schema_validator import OAS30Validator

DESCRIPTIONS = ("/api/v1/openapi.json", "/openapi/agent.json")
CHECKED_PREFIX = "/api/v1/"
HTTP_METHODS = {"get", "put", "post", "delete", "patch"}


class ContractError(AssertionError):
    """An answer that the served description does not allow."""


class Description:
    def __init__(self, document: dict):
        self.document = document
        self.server = document["servers"][0]["url"].rstrip("/")
        self.openapi = OpenAPI.from_dict(document)
        self.templates = [
            (re.compile("^" + re.sub(r"\\{[^}/]+\\}", "[^/]+", re.escape(path)) + "$"), path)
            for path in document["paths"]
        ]

    def template_for(self, path: str) -> str | None:
        # A literal path wins over a templated one, as in routing.
        matches = [template for pattern, template in self.templates if pattern.match(path)]
        matches.sort(key=lambda template: template.count("{"))
        return matches[0] if matches else None

    def error_schema_errors(self, body) -> list[str]:
        # The components ride along so that the schema's references resolve inside it.
        schema = {"$ref": "#/components/schemas/Error", "components": self.document["components"]}
        return [error.message for error in OAS30Validator(schema).iter_errors(body)]


@cache
def descriptions() -> tuple[Description, ...]:
    client = Client()
    loaded = []
    for url in DESCRIPTIONS:
        response = client.get(url)
        assert response.status_code == 200, f"{url} answered {response.status_code}"
        loaded.append(Description(json.loads(response.content)))
    return tuple(loaded)


def is_checked(path: str) -> bool:
    return path.startswith(CHECKED_PREFIX) and path not in DESCRIPTIONS


def check(method: str, path: str, query: str, response, *, server_fault=False) -> None:
    """Raises ContractError when the answer is not one the served description allows.
    With server_fault (a failure the test caused on purpose), a 5xx needs the error shape."""
    method = method.lower()
    if method == "options":
        return  # CORS preflights and DRF's metadata: not operations of the descriptions
    if method == "head":
        method = "get"
    status = response.status_code
    where = f"{method.upper()} {path}{'?' + query if query else ''} answered {status}"

    if server_fault and status >= 500:
        _check_error_shape(descriptions()[0], where, response)
        return

    # A path may be in both descriptions, each holding some of its methods (the ad spend
    # records: read in the figures description, written in the agent one): the one that
    # describes the method checks the answer.
    found = []
    for description in descriptions():
        template = description.template_for(path)
        if template is not None:
            found.append((description, template))
    for description, template in found:
        if method in description.document["paths"][template]:
            _check_described_path(description, template, method, path, where, response)
            return
    if found:
        description, template = found[0]
        _check_described_path(description, template, method, path, where, response)
        return

    if status != 404:
        raise ContractError(f"{where}: no served description has this path")
    _check_error_shape(descriptions()[0], where, response)


def _check_described_path(
    description: Description, template: str, method: str, path: str, where: str, response
) -> None:
    """A described method's answer must match its operation; any other method's is a 405."""
    item = description.document["paths"][template]
    if method not in item:
        if response.status_code != 405:
            raise ContractError(f"{where}: {method.upper()} is not described for {template}")
        _check_error_shape(description, where, response)
        return
    _check_status_documented(item[method], where, response.status_code)
    if method == "get" and response.request.get("REQUEST_METHOD") == "HEAD":
        return  # no body to check
    request = MockRequest(
        description.server,
        method,
        path,
        path_pattern=template,
        args=None,
        content_type=response.request.get("CONTENT_TYPE", ""),
    )
    answer = MockResponse(
        response.content,
        status_code=response.status_code,
        headers=dict(response.headers.items()),
        content_type=response.get("Content-Type", ""),
    )
    try:
        description.openapi.validate_response(request, answer)
    except Exception as error:  # reported with every detail below
        raise ContractError(
            f"{where}: {_explain(error)}\nbody: {response.content[:2000]!r}"
        ) from None


def _check_status_documented(operation: dict, where: str, status: int) -> None:
    documented = operation.get("responses", {})
    if str(status) not in documented and f"{str(status)[0]}XX" not in documented:
        raise ContractError(
            f"{where}: status {status} is not documented (documented: {sorted(documented)})"
        )


def _check_error_shape(description: Description, where: str, response):
    content_type = response.get("Content-Type", "")
    if not content_type.startswith("application/json"):
        raise ContractError(f"{where}: {content_type!r} is not the JSON error shape")
    body = response.content
    problems = description.error_schema_errors(json.loads(body))
    if problems:
        raise ContractError(f"{where}: not the error shape: {problems}\nbody: {body[:500]!r}")


def _explain(error: Exception) -> str:
    lines = [f"{type(error).__name__}: {error}"]
    cause = error
    seen = set()
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        for inner in getattr(cause, "schema_errors", ()) or ():
            location = "/".join(str(part) for part in inner.absolute_path)
            lines.append(f"  at /{location}: {inner.message}")
        cause = cause.__cause__ or cause.__context__
    return "\n".join(lines)
