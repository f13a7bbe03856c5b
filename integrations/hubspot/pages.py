"""HubSpot's own settings page, where an owner or admin names the contact properties that
hold a lead's UTM values: /settings/<workspace id>/integrations/<connection id>/hubspot/."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render

from audit.services import Actor
from workspaces.access import PageForbidden, member_or_404, page
from workspaces.models import Member

from ..models import Connection
from .options import (
    DEFAULT_UTM_PROPERTIES,
    UTM_FIELDS,
    utm_properties,
    utm_properties_check,
    utm_properties_set,
)

MAPPING_ROLES = Member.ADMIN_ROLES


class UtmPropertiesForm(forms.Form):
    utm_source = forms.CharField(required=False, max_length=100, label="utm_source")
    utm_medium = forms.CharField(required=False, max_length=100, label="utm_medium")
    utm_campaign = forms.CharField(required=False, max_length=100, label="utm_campaign")
    utm_content = forms.CharField(required=False, max_length=100, label="utm_content")

    def clean(self):
        data = super().clean()
        clean, errors = utm_properties_check(data)
        for field, message in errors.items():
            self.add_error(field, message)
        return clean


def _connection(request, workspace_id, connection_id) -> Connection:
    workspace, member = member_or_404(request, workspace_id)
    connection = (
        Connection.objects.filter(pk=connection_id, workspace=workspace, provider="hubspot")
        .select_related("workspace")
        .first()
    )
    if connection is None:
        raise Http404("No HubSpot connection has that id.")
    if member.role not in MAPPING_ROLES:
        raise PageForbidden(
            f"Only an owner or admin of {workspace.name} changes what HubSpot feeds; your "
            f"role is {member.role}. Ask an owner or admin."
        )
    return connection


@page
def hubspot_mapping(request, workspace_id, connection_id):
    connection = _connection(request, workspace_id, connection_id)
    form = UtmPropertiesForm(initial=utm_properties(connection))
    status = 200
    if request.method == "POST":
        form = UtmPropertiesForm(request.POST)
        if form.is_valid():
            utm_properties_set(
                connection=connection,
                mapping=form.cleaned_data,
                actor=Actor.for_user(request.user),
            )
            messages.success(request, "UTM properties saved; contacts read from now on use them.")
            return redirect(request.path)
        status = 400
    return render(
        request,
        "integrations/hubspot_mapping.html",
        {
            "workspace": connection.workspace,
            "owner": connection.workspace,
            "section": "integrations",
            "connection": connection,
            "form": form,
            "fields": UTM_FIELDS,
            "defaults": DEFAULT_UTM_PROPERTIES,
        },
        status=status,
    )
