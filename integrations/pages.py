"""The workspace settings page Integrations (docs/integrations.md).

Owners and admins connect and disconnect providers; owners, admins and managers see the
connections and assign or dismiss the events they hold. To anyone who is not an active
member the workspace does not exist (404); another role gets the 403 page. Every write
goes through integrations.services, which records its audit event; no page shows a
credential once it is saved.
"""

from __future__ import annotations

from collections import defaultdict
from functools import wraps

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from audit.services import Actor
from core.errors import InvalidField, NotFound
from workspaces.access import member_or_404, page
from workspaces.models import Member, Workspace

from . import selectors, services
from .base import EventSummary
from .failures import REFUSED, connection_made_by, connection_state_words
from .forms import AssignForm, ConnectForm
from .models import Event
from .providers import PROVIDERS, credentials_check, provider_get

CONNECT_ROLES = Member.ADMIN_ROLES
HELD_EVENT_ROLES = frozenset(Member.WORKSPACE_WIDE_ROLES)


def _actor(request) -> Actor:
    return Actor.for_user(request.user)


def _member_workspace(request, workspace_id, *, roles, doing: str) -> tuple[Workspace, Member]:
    return member_or_404(request, workspace_id, roles=roles, doing=doing)


def _summary(event) -> EventSummary:
    provider = provider_get(event.provider)
    if provider is None or provider.summary is None:
        return EventSummary()
    return provider.summary(event)


def _page_url(workspace, anchor: str = "") -> str:
    url = reverse("settings-integrations", args=[workspace.pk])
    return f"{url}#{anchor}" if anchor else url


def _settings_links(integration, connection, member) -> list[tuple[str, str]]:
    """The provider's own pages the member may open, as (label, URL)."""
    if integration is None:
        return []
    links = []
    for settings_page in integration.settings_pages:
        if settings_page.roles is not None and member.role not in settings_page.roles:
            continue
        args = [connection.workspace_id]
        if settings_page.per_connection:
            args.append(connection.pk)
        links.append((settings_page.label, reverse(settings_page.url_name, args=args)))
    declared = integration.options_page
    if declared is not None and member.role in declared.roles:
        url = reverse(
            f"integration-{integration.key}-options",
            args=[connection.workspace_id, connection.pk],
        )
        links.append((declared.label, url))
    return links


def _sale_choices(workspace) -> list[tuple[str, str]]:
    return [
        (str(sale.pk), selectors.sale_label(sale, currency=workspace.currency))
        for sale in selectors.sales_with_balance(workspace=workspace)
    ]


def _refused_step(connection) -> str:
    integration = provider_get(connection.provider) if connection is not None else None
    return integration.refused_step if integration is not None else ""


def _failure(connection, name: str) -> dict | None:
    """A failing connection's trouble in a sentence with its next step; never the raw
    error (which the audit log keeps)."""
    words = connection_state_words(connection, name=name, step=_refused_step(connection))
    if words.state != "failing":
        return None
    return {
        "kind": words.failure_kind,
        "sentence": words.sentence,
        "refused": words.failure_kind == REFUSED,
    }


def _integrations_page(request, workspace, member, *, bound_assign=None, status=200):
    """The page: each connection with its counters, webhook URL and held events."""
    sale_choices = _sale_choices(workspace)
    held_by_connection = defaultdict(list)
    for event in selectors.held_event_page_list(workspace=workspace):
        form = (
            bound_assign
            if bound_assign is not None and bound_assign.prefix == f"event-{event.pk}"
            else AssignForm(
                workspace=workspace, sale_choices=sale_choices, prefix=f"event-{event.pk}"
            )
        )
        held_by_connection[event.connection_id].append(
            {"event": event, "summary": _summary(event), "form": form}
        )
    connections = []
    for connection in selectors.connection_page_list(workspace=workspace):
        integration = provider_get(connection.provider)
        name = integration.name if integration else connection.provider
        connections.append(
            {
                "connection": connection,
                "name": name,
                "failure": _failure(connection, name),
                "words": connection_state_words(
                    connection, name=name, step=_refused_step(connection)
                ),
                "made_by": connection_made_by(connection.created_by),
                "webhook_help": integration.webhook_help if integration else "",
                # Only a provider that receives webhooks has an endpoint to paste.
                "webhook_url": _webhook_url(integration, connection.pk),
                "pulled": integration.pull if integration is not None else None,
                # Its rows are written as read: no events to hold or refuse.
                "places_events": integration is None or integration.places_events,
                "settings_links": _settings_links(integration, connection, member),
                "held": held_by_connection.get(connection.pk, []),
            }
        )
    return render(
        request,
        "integrations/integrations.html",
        {
            "workspace": workspace,
            "owner": workspace,
            "section": "integrations",
            "member": member,
            "can_connect": member.role in CONNECT_ROLES,
            "connections": connections,
            "held_count": sum(len(item["held"]) for item in connections),
            "offered": list(PROVIDERS.values()),
        },
        status=status,
    )


@page
@require_safe
def integrations_page(request, workspace_id):
    workspace, member = _member_workspace(
        request, workspace_id, roles=HELD_EVENT_ROLES, doing="sees its integrations"
    )
    return _integrations_page(request, workspace, member)


# --- Connect and disconnect (owners and admins) ------------------------------------------


def _connected_notice(integration, connection, *, live) -> str:
    saved = "new credentials are saved" if live else "credentials are saved"
    days = integration.pull.first_days if integration.pull is not None else 90
    notice = f"{integration.name}'s {saved}; its last {days} days are being read."
    if integration.receives_webhooks:
        notice += f" Its webhook URL is {selectors.webhook_url(connection)}"
    return notice


def _webhook_url(integration, connection_id) -> str:
    """The URL to paste at the provider; none for a provider that sends no webhooks."""
    if integration is None or not integration.receives_webhooks:
        return ""
    return selectors.webhook_url(connection_id, integration.key)


@page
@require_http_methods(["GET", "POST"])
def connect_page(request, workspace_id, provider):
    """The provider's credential fields, with the webhook URL shown before the fields the
    provider asks for after it. The URL names a connection id allocated here and carried,
    signed, through the form, so the URL pasted at the provider is the connection's."""
    workspace, _member = _member_workspace(
        request, workspace_id, roles=CONNECT_ROLES, doing="connects its integrations"
    )
    integration = provider_get(provider)
    if integration is None:
        raise Http404("No provider has that name.")
    status, notice, connection_id, signed = 200, "", None, ""
    # One connection per provider: connecting it again replaces the live one's credentials,
    # and its webhook URL stays the one already pasted at the provider.
    live = services.connection_live(workspace=workspace, provider=integration.key)
    if request.method == "POST":
        form = ConnectForm(integration, request.POST, credentials_check=credentials_check)
        signed = request.POST.get("connection", "")
        connection_id = services.connection_id_unsign(signed)
        if connection_id is None:
            # The webhook URL the form showed cannot be trusted: a new one is shown, to
            # be pasted at the provider before the form is sent again.
            notice = (
                "This form is more than a day old or was changed. The webhook URL below is "
                "new: paste it at the provider, then enter the credential again."
            )
            form.is_valid()
        elif form.is_valid():
            try:
                connection = services.connection_create(
                    workspace=workspace,
                    provider=integration.key,
                    credentials=form.credentials,
                    actor=_actor(request),
                    connection_id=connection_id,
                )
            except InvalidField as refused:
                field = refused.extra.get("field")
                form.add_error(field if field in form.fields else None, refused.message)
                if field == "connection_id":
                    # Connected meanwhile: the form now shows that connection's URL.
                    live = services.connection_live(workspace=workspace, provider=integration.key)
                    connection_id = None
            else:
                # Not "connected" yet: the first calls to the provider run after this,
                # and the connection's state below says how they went.
                messages.info(request, _connected_notice(integration, connection, live=live))
                return redirect(_page_url(workspace, f"connection-{connection.pk}"))
        status = 400
    else:
        form = ConnectForm(integration)
    if live is not None:
        connection_id, signed = live.pk, services.connection_id_sign(live.pk)
    elif connection_id is None:
        connection_id, signed = services.connection_id_allocate()
    return render(
        request,
        "integrations/connect.html",
        {
            "workspace": workspace,
            "owner": workspace,
            "section": "integrations",
            "integration": integration,
            "form": form,
            "notice": notice,
            "live": live,
            "words": (
                connection_state_words(live, name=integration.name, step=integration.refused_step)
                if live
                else None
            ),
            "signed_connection": signed,
            "webhook_url": _webhook_url(integration, connection_id),
            "back": _page_url(workspace),
        },
        status=status,
    )


@page
@require_http_methods(["GET", "POST"])
def disconnect_page(request, workspace_id, connection_id):
    workspace, _member = _member_workspace(
        request, workspace_id, roles=CONNECT_ROLES, doing="disconnects its integrations"
    )
    connection = selectors.connection_of_workspace(workspace=workspace, connection_id=connection_id)
    if connection is None:
        raise Http404("No connection of this workspace has that id.")
    integration = provider_get(connection.provider)
    name = integration.name if integration else connection.provider
    if request.method == "POST":
        if connection.state != connection.State.DISCONNECTED:
            services.connection_disconnect(connection=connection, actor=_actor(request))
        messages.success(request, f"{name} is disconnected: its webhooks are refused from now on.")
        return redirect(_page_url(workspace, f"connection-{connection.pk}"))
    return render(
        request,
        "integrations/disconnect.html",
        {
            "workspace": workspace,
            "owner": workspace,
            "section": "integrations",
            "connection": connection,
            "name": name,
            "back": _page_url(workspace, f"connection-{connection.pk}"),
        },
    )


@page
@require_POST
def retry_page(request, workspace_id, connection_id):
    """Retry: a failing connection's provider calls are tried again now, through the
    backfill task."""
    workspace, _member = _member_workspace(
        request, workspace_id, roles=CONNECT_ROLES, doing="retries its integrations"
    )
    connection = selectors.connection_of_workspace(workspace=workspace, connection_id=connection_id)
    if connection is None:
        raise Http404("No connection of this workspace has that id.")
    integration = provider_get(connection.provider)
    name = integration.name if integration else connection.provider
    if connection.state == connection.State.FAILING:
        services.connection_retry(connection=connection, actor=_actor(request))
        messages.info(request, f"Trying {name} again now; its state below says how it went.")
    else:
        messages.info(request, f"{name} is {connection.state}: nothing to retry.")
    return redirect(_page_url(workspace, f"connection-{connection.pk}"))


# --- Held events (owners, admins and managers) -------------------------------------------


def _no_longer_held(request, workspace, event):
    messages.info(request, f"That event is no longer held: it is {event.state}.")
    return redirect(_page_url(workspace, "held"))


def _held_event_view(*, doing: str):
    """A view of one held event, called as ``view(request, workspace, member, event)``
    once the member's role allows ``doing`` and the event is the workspace's; an event
    no longer held gets the page back with a message saying so."""

    def decorate(view):
        @wraps(view)
        def held_event_view(request, workspace_id, event_id):
            workspace, member = _member_workspace(
                request, workspace_id, roles=HELD_EVENT_ROLES, doing=doing
            )
            event = selectors.event_of_workspace(workspace=workspace, event_id=event_id)
            if event is None:
                raise Http404("No event of this workspace has that id.")
            if event.state != Event.State.HELD:
                return _no_longer_held(request, workspace, event)
            return view(request, workspace, member, event)

        return held_event_view

    return decorate


@page
@require_POST
@_held_event_view(doing="assigns held events")
def event_assign(request, workspace, member, event):
    form = AssignForm(
        request.POST,
        workspace=workspace,
        sale_choices=_sale_choices(workspace),
        prefix=f"event-{event.pk}",
    )
    if form.is_valid():
        try:
            services.event_assign(event=event, sale=form.sale, actor=_actor(request))
        except NotFound:
            form.add_error(None, "No sale of this workspace has that id.")
        except InvalidField as refused:
            form.add_error(None, refused.message)
        else:
            summary = _summary(event)
            what = " of ".join(part for part in (summary.amount, summary.email) if part)
            messages.success(
                request,
                f"The {event.event_type} event{f' ({what})' if what else ''} is assigned to "
                "the sale.",
            )
            return redirect(_page_url(workspace, "held"))
    return _integrations_page(request, workspace, member, bound_assign=form, status=400)


@page
@require_POST
@_held_event_view(doing="dismisses held events")
def event_dismiss(request, workspace, _member, event):
    try:
        services.event_dismiss(event=event, actor=_actor(request))
    except (InvalidField, NotFound):
        event.refresh_from_db(fields=["state"])
        return _no_longer_held(request, workspace, event)
    messages.success(request, f"The {event.event_type} event is dismissed.")
    return redirect(_page_url(workspace, "held"))
