"""The MCP server: tools/list and tools/call over the REST operations (see catalog.py).

A tool answers the REST answer's JSON as structured content, with a one-line summary a
person can read; a refusal is a tool error carrying the API's error body (its `reason`,
`message` and any `field`).
"""

from __future__ import annotations

import mcp_types as types
from asgiref.sync import sync_to_async
from mcp.server import Server
from mcp.shared.exceptions import MCPError

from tokens.principal import Principal

from .catalog import WRITE_SCOPE, ToolSpec, tool_catalog
from .dispatch import Answer, Caller, operation_call

# The key of the ASGI scope on which the endpoint leaves the authenticated caller.
CALLER_SCOPE_KEY = "salesfigures.caller"

SERVER_NAME = "salesfigures"
INSTRUCTIONS = (
    "Sales Figures: live figures of one sales team's workspace (calls, outcomes, payments, "
    "leads, EOD reports, attribution, commission, funnels, webinars), its display config, "
    "the signed-in member's board and the change log. Call whoami first. Figures answer "
    "the Envelope {workspace, period, data, notes}: a figure that cannot be drawn honestly "
    "is null with `unavailable`, never 0. Periods are from/to days (YYYY-MM-DD) in the "
    "workspace timezone, both included. With data:write, createDraft proposes a form for a "
    "member to check (never with money in it) and createChange records a change-log entry."
)


def _caller(ctx) -> Caller:
    request = ctx.request
    caller = request.scope.get(CALLER_SCOPE_KEY) if request is not None else None
    if caller is None:  # only reachable if the endpoint were mounted without its checks
        raise MCPError(code=types.INVALID_REQUEST, message="Not authenticated.")
    return caller


def _may_write(spec: ToolSpec, principal: Principal) -> bool:
    if principal.is_agency:
        return spec.workspace_operation is not None and "config:plan" in principal.scopes
    return WRITE_SCOPE in principal.scopes


def _figure_text(field: dict) -> str:
    value = field.get("value")
    if value is None:
        code = (field.get("unavailable") or {}).get("code", "unavailable")
        return f"{field['label']} unavailable ({code})"
    if field.get("unit") == "money":
        return f"{field['label']} {value} {field.get('currency', '')}".rstrip()
    return f"{field['label']} {value}"


def _is_field(value) -> bool:
    return isinstance(value, dict) and "metric" in value and "unit" in value


def answer_summary(spec: ToolSpec, answer: Answer) -> str:
    """One line a person can read; the structured content holds the whole answer."""
    body = answer.body if isinstance(answer.body, dict) else {}
    if not answer.ok:
        error = body.get("error") or {}
        field = f" (field: {body['field']})" if body.get("field") else ""
        return f"Refused, {error.get('reason', answer.status)}: {error.get('message', '')}{field}"
    replayed = " (replayed: this key's first answer)" if answer.replayed else ""
    if {"workspace", "data", "notes"} <= body.keys():
        period = body.get("period")
        when = f" for {period['from']} to {period['to']}" if period else ""
        data = body["data"] if isinstance(body["data"], dict) else {}
        figures = [_figure_text(value) for value in data.values() if _is_field(value)]
        shown = "; ".join(figures[:5])
        if len(figures) > 5:
            shown += f"; and {len(figures) - 5} more"
        if not shown:
            rows = {key: len(value) for key, value in data.items() if isinstance(value, list)}
            shown = ", ".join(f"{count} {key}" for key, count in rows.items())
        notes = len(body["notes"])
        return f"{spec.title}{when}: {shown or 'see the structured content'}. {notes} note(s)."
    if spec.name == "whoami":
        return (
            f"Workspace {body['workspace']['id']}, token {body['token']['name']!r}, "
            f"{body['access']}."
        )
    lists = {key: len(value) for key, value in body.items() if isinstance(value, list)}
    if lists:
        counted = ", ".join(f"{count} {key}" for key, count in lists.items())
        return f"{spec.title}: {counted}."
    if "id" in body:
        return f"{spec.title}: done, id {body['id']}{replayed}."
    return f"{spec.title}: done{replayed}."


async def list_tools(ctx, params) -> types.ListToolsResult:
    principal = _caller(ctx).principal
    catalog = await sync_to_async(tool_catalog, thread_sensitive=False)()
    return types.ListToolsResult(
        tools=[
            types.Tool(
                name=spec.name,
                title=spec.title,
                description=spec.description,
                input_schema=spec.input_schema,
                annotations=types.ToolAnnotations(
                    read_only_hint=not spec.writes,
                    idempotent_hint=not spec.writes,
                    destructive_hint=False,
                    open_world_hint=False,
                ),
            )
            for spec in catalog.values()
            if not spec.writes or _may_write(spec, principal)
        ]
    )


async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
    caller = _caller(ctx)
    catalog = await sync_to_async(tool_catalog, thread_sensitive=False)()
    spec = catalog.get(params.name)
    if spec is None:
        raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")
    answer = await sync_to_async(operation_call, thread_sensitive=False)(
        spec=spec, arguments=dict(params.arguments or {}), caller=caller
    )
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=answer_summary(spec, answer))],
        structured_content=answer.body,
        is_error=not answer.ok,
    )


def server_build() -> Server:
    return Server(
        SERVER_NAME,
        version="1.0.0",
        title="Sales Figures",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )
