"""The Webhooks settings pages (`/settings/<workspace id>/webhooks/`): owners and admins
add, change, test and delete endpoints and resend deliveries; managers read. Every write
goes through webhooks.services, with its audit event."""

from datetime import timedelta

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import OuterRef, Subquery
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone

from audit.services import Actor
from core.display import moment_text
from core.errors import InvalidField
from core.ids import parse_uuid
from events.types import EVENT_TYPES
from workspaces.access import PageForbidden, member_or_404, page
from workspaces.models import Member

from . import services
from .forms import RESEND_WINDOWS, EndpointForm, ResendFailedForm
from .models import Delivery, DeliveryAttempt, WebhookEndpoint

READERS = Member.WORKSPACE_WIDE_ROLES
MANAGERS = Member.ADMIN_ROLES
LOG_PAGE = 50


def _membership(request, workspace_id):
    workspace, me = member_or_404(
        request, workspace_id, roles=READERS, doing="reads its webhook endpoints"
    )
    manages = me.role in MANAGERS
    if request.method == "POST" and not manages:
        raise PageForbidden("Only an owner or admin changes the webhook endpoints; ask one.")
    return workspace, manages


def _form_error(form: EndpointForm, refused: InvalidField) -> None:
    """The service's refusal under the field it names (its message without the prefix)."""
    field = refused.extra.get("field")
    message = refused.message.removeprefix(f"{field}: ")
    form.add_error(field if field in form.fields else None, message)


def _endpoint_rows(workspace):
    """The endpoints, each with its last attempt's time and result (one query)."""
    last = DeliveryAttempt.objects.filter(endpoint=OuterRef("pk")).order_by("-started_at")
    return (
        WebhookEndpoint.objects.filter(workspace=workspace)
        .annotate(
            last_attempt_at=Subquery(last.values("started_at")[:1]),
            last_succeeded=Subquery(last.values("succeeded")[:1]),
            last_error=Subquery(last.values("error")[:1]),
        )
        .order_by("created_at", "pk")
    )


@page
def endpoints_page(request, workspace_id):
    workspace, manages = _membership(request, workspace_id)
    form, created, status = EndpointForm(), None, 200
    if request.method == "POST":
        form = EndpointForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                created = services.endpoint_create(
                    workspace=workspace,
                    url=data["url"],
                    events=data["events"],
                    description=data["description"],
                    enabled=True,
                    actor=Actor.for_user(request.user),
                )
            except InvalidField as refused:
                _form_error(form, refused)
        if created is None:
            status = 400
        else:
            form = EndpointForm()
    context = {
        "workspace": workspace,
        "owner": workspace,
        "section": "webhooks",
        "manages": manages,
        "endpoints": _endpoint_rows(workspace),
        "now": services.now_for_pages(),
        "form": form,
        "created": created,
        "event_types": EVENT_TYPES,
    }
    return render(request, "webhooks/endpoints.html", context, status=status)


def _endpoint_or_404(workspace, endpoint_id) -> WebhookEndpoint:
    endpoint = WebhookEndpoint.objects.filter(
        workspace=workspace, pk=parse_uuid(endpoint_id)
    ).first()
    if endpoint is None:
        raise Http404("No webhook endpoint of this workspace has that id.")
    return endpoint


def _post_action(request, workspace, endpoint) -> EndpointForm | None:
    """Run the posted action; an invalid edit form is returned to show its errors."""
    action, actor = request.POST.get("action"), Actor.for_user(request.user)
    if action == "edit":
        form = EndpointForm(request.POST)
        if not form.is_valid():
            return form
        try:
            services.endpoint_update(endpoint=endpoint, changes=form.cleaned_data, actor=actor)
        except InvalidField as refused:
            _form_error(form, refused)
            return form
        messages.success(request, "Saved.")
    elif action == "ping":
        services.endpoint_ping(endpoint=endpoint, actor=actor)
        messages.success(request, "A test event (ping) is on its way; its attempt shows below.")
    elif action == "resend":
        delivery_id = request.POST.get("delivery", "")
        delivery = (
            Delivery.objects.filter(endpoint=endpoint, pk=int(delivery_id)).first()
            if delivery_id.isascii() and delivery_id.isdigit() and len(delivery_id) < 19
            else None
        )
        if delivery is None:
            raise Http404("No delivery of this endpoint has that id.")
        services.delivery_resend(delivery=delivery, actor=actor)
        messages.success(
            request,
            f"The {delivery.event.type} event of {moment_text(delivery.event.created_at)} "
            "is sent again.",
        )
    elif action == "resend-failed":
        window = ResendFailedForm(request.POST)
        if not window.is_valid():
            raise Http404("Choose a time.")
        hours = RESEND_WINDOWS[window.cleaned_data["since"]]
        count = services.deliveries_resend_failed(
            endpoint=endpoint, since=timezone.now() - timedelta(hours=hours), actor=actor
        )
        messages.success(request, f"{count} failed deliveries are sent again.")
    else:
        raise Http404("Unknown action.")
    return None


@page
def endpoint_page(request, workspace_id, endpoint_id):
    workspace, manages = _membership(request, workspace_id)
    endpoint = _endpoint_or_404(workspace, endpoint_id)
    form, status = None, 200
    if request.method == "POST":
        form = _post_action(request, workspace, endpoint)
        if form is None:
            return redirect(request.get_full_path())
        status = 400
    if form is None:
        form = EndpointForm(
            initial={
                "url": endpoint.url,
                "events": endpoint.event_types,
                "description": endpoint.description,
                "enabled": endpoint.enabled,
            }
        )
    outcome = request.GET.get("outcome", "")
    type = request.GET.get("type", "")
    attempts = (
        DeliveryAttempt.objects.filter(
            endpoint=endpoint, started_at__gte=timezone.now() - services.KEEP
        )
        .select_related("delivery__event")
        .order_by("-started_at", "-pk")
    )
    if outcome in ("succeeded", "failed"):
        attempts = attempts.filter(succeeded=outcome == "succeeded")
    if type in EVENT_TYPES or type == "ping":
        attempts = attempts.filter(delivery__event__type=type)
    log = Paginator(attempts, LOG_PAGE).get_page(request.GET.get("page"))
    context = {
        "workspace": workspace,
        "owner": workspace,
        "section": "webhooks",
        "manages": manages,
        "endpoint": endpoint,
        "paused": services.endpoint_pause_text(endpoint),
        "form": form,
        "resend_form": ResendFailedForm(),
        "log": log,
        "outcome": outcome,
        "type": type,
        "event_types": [*EVENT_TYPES, "ping"],
    }
    return render(request, "webhooks/endpoint.html", context, status=status)


@page
def endpoint_delete_page(request, workspace_id, endpoint_id):
    """Deleting an endpoint asks first, saying what stops and what is dropped with it."""
    workspace, manages = _membership(request, workspace_id)
    if not manages:
        raise PageForbidden("Only an owner or admin deletes a webhook endpoint; ask one.")
    endpoint = _endpoint_or_404(workspace, endpoint_id)
    if request.method == "POST":
        services.endpoint_delete(endpoint=endpoint, actor=Actor.for_user(request.user))
        messages.success(request, f"The endpoint {endpoint.url} is deleted.")
        return redirect("settings-webhooks", workspace_id=workspace.pk)
    context = {
        "workspace": workspace,
        "owner": workspace,
        "section": "webhooks",
        "manages": manages,
        "endpoint": endpoint,
        "pending": Delivery.objects.filter(endpoint=endpoint, state=Delivery.State.PENDING).count(),
        "back": reverse("settings-webhook", args=[workspace.pk, endpoint.pk]),
    }
    return render(request, "webhooks/endpoint_delete.html", context)
