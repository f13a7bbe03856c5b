"""The tools of the MCP server, read from the served OpenAPI descriptions.

A tool is one operation of the REST API, named by its operation id: its description,
its parameters (names, types, bounds, descriptions) and its body are the operation's own,
as drf-spectacular generates them from the views. Nothing here restates a parameter.
"""

from __future__ import annotations

import copy
import threading
from dataclasses import dataclass, field

from django.conf import settings
from django.utils.module_loading import import_string
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.settings import patched_settings

# (operation id, the operation naming the workspace in its path, for agency tokens).
# Every operation of the figures description (/api/v1/openapi.json, GET only) is a read
# tool (tests/mcpserver/test_tools.py checks it), then the agent API's reads.
READ_TOOLS = [
    ("whoami", None),
    ("listCallFigures", None),
    ("listOutcomes", None),
    ("listPaymentFigures", None),
    ("listLeads", None),
    ("getLeadJourney", None),
    ("listSpeedToLead", None),
    ("listEodFigures", None),
    ("listAttribution", None),
    ("listAcquisition", None),
    ("listAdSpend", None),
    ("listCommission", None),
    ("getFunnel", None),
    ("getWebinar", None),
    ("listGoals", None),
    ("getLeaderboard", None),
    ("listAuditEvents", None),
    ("getSeries", None),
    ("listEvents", None),
    ("getDisplay", "getWorkspaceDisplay"),
    ("getMyBoard", None),
    ("listChanges", "listWorkspaceChanges"),
    ("compareAroundChange", None),
]
WRITE_TOOLS = [
    ("createDraft", None),
    ("createChange", "createWorkspaceChange"),
]
WRITE_SCOPE = "data:write"

IDEMPOTENCY_KEY = "idempotency_key"
WORKSPACE_ID = "workspaceId"


@dataclass(frozen=True)
class Operation:
    method: str
    path: str  # a template: /api/v1/change-log/{id}/compare
    path_params: tuple[str, ...]
    query_params: tuple[str, ...]


@dataclass(frozen=True)
class ToolSpec:
    name: str
    title: str
    description: str
    input_schema: dict
    operation: Operation
    # The same operation naming the workspace: used when workspaceId is given.
    workspace_operation: Operation | None = None
    body_members: tuple[str, ...] = field(default=())

    @property
    def writes(self) -> bool:
        return self.operation.method == "POST"


def _described_operations() -> tuple[dict, dict]:
    """operation id -> (method, path, operation object), and the components, of both APIs."""
    operations: dict[str, tuple[str, str, dict]] = {}
    components: dict[str, dict] = {}
    for urlconf, custom_path in settings.API_DESCRIPTIONS:
        custom = import_string(custom_path)
        with patched_settings(custom):
            schema = SchemaGenerator(urlconf=urlconf).get_schema(request=None, public=True)
        components.update(schema.get("components", {}).get("schemas", {}))
        for path, item in schema["paths"].items():
            for method, operation in item.items():
                operations[operation["operationId"]] = (method.upper(), path, operation)
    return operations, components


def _json_schema(schema: dict, components: dict) -> dict:
    """An OpenAPI 3.0 schema as plain JSON Schema: references inlined, nullable as a type."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        return _json_schema(components[name], components)
    result = {}
    for key, value in schema.items():
        if key in {"nullable", "readOnly", "writeOnly"}:
            continue
        if key == "properties":
            value = {name: _json_schema(item, components) for name, item in value.items()}
        elif key in {"items", "additionalProperties"} and isinstance(value, dict):
            value = _json_schema(value, components)
        elif key in {"allOf", "oneOf", "anyOf"}:
            value = [_json_schema(item, components) for item in value]
        result[key] = copy.deepcopy(value)
    if schema.get("nullable"):
        if "type" in result:
            result["type"] = [result["type"], "null"]
        elif "allOf" in result and len(result["allOf"]) == 1:
            result = {"anyOf": [result.pop("allOf")[0], {"type": "null"}], **result}
    return result


def _parameter_schema(parameter: dict, components: dict) -> dict:
    schema = _json_schema(parameter.get("schema", {"type": "string"}), components)
    if parameter.get("description"):
        schema["description"] = parameter["description"]
    return schema


def _operation(method: str, path: str, described: dict) -> Operation:
    parameters = described.get("parameters", [])
    return Operation(
        method=method,
        path=path,
        path_params=tuple(p["name"] for p in parameters if p["in"] == "path"),
        query_params=tuple(p["name"] for p in parameters if p["in"] == "query"),
    )


def _parameter_arguments(described: dict, components: dict) -> tuple[dict, list[str]]:
    """The operation's path and query parameters as arguments, and the required ones."""
    properties: dict[str, dict] = {}
    required: list[str] = []
    for parameter in described.get("parameters", []):
        if parameter["in"] not in {"path", "query"}:
            continue  # the Idempotency-Key header is the idempotency_key argument
        properties[parameter["name"]] = _parameter_schema(parameter, components)
        if parameter.get("required"):
            required.append(parameter["name"])
    return properties, required


def _body_schema(described: dict, components: dict) -> dict | None:
    if "requestBody" not in described:
        return None
    return _json_schema(
        described["requestBody"]["content"]["application/json"]["schema"], components
    )


def _workspace_argument(w_described: dict, components: dict) -> dict | None:
    """The workspaceId path parameter of the operation naming the workspace, as an
    optional argument."""
    for parameter in w_described.get("parameters", []):
        if parameter["name"] == WORKSPACE_ID:
            schema = _parameter_schema(parameter, components)
            schema["description"] = (
                "Optional. " + schema["description"] + " Leave it out to "
                "use the token's own workspace; an agency token must give it."
            )
            return schema
    return None


def _idempotency_argument(described: dict, components: dict) -> dict:
    """A write's Idempotency-Key header as the optional idempotency_key argument."""
    header = next(p for p in described["parameters"] if p["name"] == "Idempotency-Key")
    key_schema = _parameter_schema(header, components)
    key_schema.update(type="string", minLength=8, maxLength=200)
    key_schema["description"] = (
        "Optional. "
        + header["description"].replace(
            "A retry with the same key", "A call repeated with the same key"
        )
        + " Without it, the write is not protected against "
        "a retry."
    )
    return key_schema


def _tool_description(described: dict) -> str:
    summary = described.get("summary", "")
    if not described.get("description"):
        return summary
    return f"{summary}.\n\n{described['description']}" if summary else described["description"]


def _tool(name: str, workspace_name: str | None, operations: dict, components: dict) -> ToolSpec:
    method, path, described = operations[name]
    properties, required = _parameter_arguments(described, components)
    body = _body_schema(described, components)
    if body is not None:
        properties.update(body.get("properties", {}))
        required.extend(body.get("required", []))
    workspace_operation = None
    if workspace_name is not None:
        w_method, w_path, w_described = operations[workspace_name]
        workspace_operation = _operation(w_method, w_path, w_described)
        workspace_argument = _workspace_argument(w_described, components)
        if workspace_argument is not None:
            properties[WORKSPACE_ID] = workspace_argument
    if method == "POST":
        properties[IDEMPOTENCY_KEY] = _idempotency_argument(described, components)
    input_schema: dict = {"type": "object", "properties": properties}
    if required:
        input_schema["required"] = required
    return ToolSpec(
        name=name,
        title=described.get("summary", name),
        description=_tool_description(described),
        input_schema=input_schema,
        operation=_operation(method, path, described),
        workspace_operation=workspace_operation,
        body_members=tuple(body.get("properties", {})) if body is not None else (),
    )


_lock = threading.Lock()
_catalog: dict[str, ToolSpec] | None = None


def tool_catalog() -> dict[str, ToolSpec]:
    """Every tool by name, built once per process from the served descriptions."""
    global _catalog
    if _catalog is None:
        with _lock:
            if _catalog is None:
                operations, components = _described_operations()
                _catalog = {
                    name: _tool(name, workspace_name, operations, components)
                    for name, workspace_name in (*READ_TOOLS, *WRITE_TOOLS)
                }
    return _catalog
