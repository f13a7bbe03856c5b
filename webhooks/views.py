"""The API routes of outbound webhooks: the endpoints (/api/v1/webhook-endpoints, in the
agent API's description) and the events feed (/api/v1/events, in the figures API's).

The base view runs the checks of every request (401, browser rules, kind, scope, role);
each handler then looks up what answers 404, validates (400) and calls one service."""

import re
from datetime import timedelta

from django.utils import timezone
from rest_framework.response import Response

from core.errors import Forbidden, InvalidParameter, NotFound
from core.ids import parse_uuid
from core.input import validated
from core.views import WorkspaceView
from events.models import Event
from events.types import EVENT_TYPES, PING

from . import schema, services
from .models import WebhookEndpoint
from .serializers import EndpointCreateSerializer, EndpointUpdateSerializer

FEED_DAYS = 30
EVENT_ID = re.compile(r"evt_[0-9A-HJKMNP-TV-Z]{26}")
LIMIT_DEFAULT, LIMIT_MAX = 100, 500


class _EndpointsBase(WorkspaceView):
    """Reads need `read`; writes `data:write`, and of a person's session token the owner
    or admin role (a manager reads)."""

    @property
    def required_scope(self):
        return "read" if self.request.method == "GET" else "data:write"

    def check_access(self, principal, kwargs) -> None:
        super().check_access(principal, kwargs)
        if (
            self.request.method != "GET"
            and principal.is_session
            and principal.member.role not in ("owner", "admin")
        ):
            raise Forbidden(
                f"A {principal.member.role} reads the webhook endpoints; owners and admins "
                "change them.",
                reason="refused.member_scope",
            )

    def endpoint(self, id) -> WebhookEndpoint:
        endpoint_id = parse_uuid(id)
        endpoint = (
            self.scoped(WebhookEndpoint).filter(pk=endpoint_id).first()
            if endpoint_id is not None
            else None
        )
        if endpoint is None:
            raise NotFound("No webhook endpoint of this workspace has that id.")
        return endpoint


class EndpointsView(_EndpointsBase):
    @schema.list_endpoints
    def get(self, request):
        endpoints = self.scoped(WebhookEndpoint).order_by("created_at", "pk")
        return Response({"endpoints": [services.endpoint_answer(e) for e in endpoints]})

    @schema.create_endpoint
    def post(self, request):
        def perform():
            data = validated(EndpointCreateSerializer, request.data)
            made = services.endpoint_create(
                workspace=self.workspace, actor=self.principal.actor, **data
            )
            return Response(services.endpoint_answer(made.endpoint, secret=made.secret), status=201)

        return self.idempotent(request, perform)


class EndpointView(_EndpointsBase):
    @schema.get_endpoint
    def get(self, request, id):
        return Response(services.endpoint_answer(self.endpoint(id)))

    @schema.update_endpoint
    def patch(self, request, id):
        endpoint = self.endpoint(id)
        data = validated(EndpointUpdateSerializer, request.data, partial=True)
        endpoint = services.endpoint_update(
            endpoint=endpoint, changes=dict(data), actor=self.principal.actor
        )
        return Response(services.endpoint_answer(endpoint))

    @schema.delete_endpoint
    def delete(self, request, id):
        services.endpoint_delete(endpoint=self.endpoint(id), actor=self.principal.actor)
        return Response(status=204)


def _limit(value) -> int:
    if value is None or value == "":
        return LIMIT_DEFAULT
    if not (value.isascii() and value.isdigit()) or not 1 <= int(value) <= LIMIT_MAX:
        raise InvalidParameter("limit", f"limit must be a whole number from 1 to {LIMIT_MAX}.")
    return int(value)


def _types(values: list[str]) -> list[str]:
    types = [name.strip() for value in values for name in value.split(",") if name.strip()]
    unknown = [name for name in types if name not in EVENT_TYPES]
    if unknown:
        raise InvalidParameter(
            "types",
            f"Unknown event type(s) {', '.join(unknown)}; the types are {', '.join(EVENT_TYPES)}.",
        )
    return types


class EventsView(WorkspaceView):
    required_scope = "read"

    @schema.list_events
    def get(self, request):
        params = request.query_params
        limit = _limit(params.get("limit"))
        types = _types(params.getlist("types"))
        since = timezone.now() - timedelta(days=FEED_DAYS)
        events = self.scoped(Event).filter(created_at__gte=since).exclude(type=PING)
        after = params.get("after")
        if after:
            if not EVENT_ID.fullmatch(after):
                raise InvalidParameter(
                    "after", "after must be an event id, evt_ and 26 letters and digits."
                )
            seq = self.scoped(Event).filter(id=after).values_list("seq", flat=True).first()
            if seq is None:
                raise InvalidParameter(
                    "after",
                    "No event of this workspace in the last 30 days has that id; list from "
                    "the oldest kept event by leaving `after` out.",
                )
            events = events.filter(seq__gt=seq)
        if types:
            events = events.filter(type__in=types)
        rows = list(events.order_by("seq")[: limit + 1])
        return Response(
            {"events": [event.as_api() for event in rows[:limit]], "has_more": len(rows) > limit}
        )
