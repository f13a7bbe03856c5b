"""A connection's options page: what a provider lets a person choose about one connection
(HubSpot's UTM properties, how an ad platform's campaigns map to UTM values), at
/settings/<workspace id>/integrations/<connection id>/<provider key>/.

The provider declares it (``Provider.options_page``: its form, template and roles); this
page checks who may open it, shows the form and keeps what is sent through
``connection_change``, audited ``integration.options_changed`` in the same transaction
(with the provider's ``options_changed`` hook, when it has one, inside it too)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from audit.services import Actor
from workspaces.access import member_or_404, page

from . import services
from .models import Connection


@page
@require_http_methods(["GET", "POST"])
def connection_options(request, workspace_id, connection_id, provider):
    integration = services.provider_get(provider)
    if integration is None or integration.options_page is None:
        raise Http404("No provider has that name.")
    declared = integration.options_page
    workspace, _member = member_or_404(
        request, workspace_id, roles=declared.roles, doing=f"changes what {integration.name} feeds"
    )
    connection = (
        Connection.objects.filter(pk=connection_id, workspace=workspace, provider=provider)
        .select_related("workspace")
        .first()
    )
    if connection is None:
        raise Http404(f"No {integration.name} connection has that id.")
    form = declared.form(initial=declared.form.initial_for(connection), connection=connection)
    status = 200
    if request.method == "POST":
        form = declared.form(request.POST, connection=connection)
        if form.is_valid():
            services.connection_change(
                connection=connection,
                options=form.options(),
                actor=Actor.for_user(request.user),
                action="integration.options_changed",
                detail={**form.options(), "before": form.before()},
                then=integration.options_changed,
            )
            messages.success(request, declared.saved)
            return redirect(request.path)
        status = 400
    return render(
        request,
        declared.template,
        {
            "workspace": connection.workspace,
            "owner": connection.workspace,
            "section": "integrations",
            "connection": connection,
            "integration": integration,
            "form": form,
        },
        status=status,
    )
