"""The workspace's webinar events and their pitch time: /settings/<workspace id>/webinars/.

An owner, admin or manager sets when the offer is pitched in each event, in the
workspace's timezone; the stay-to-pitch figures of /webinar follow it. Someone who is not
an active member of the workspace gets the plain 404 page; a member with another role the
403 page.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render

from audit.services import Actor
from core.display import moment_text
from core.errors import InvalidField
from core.times import instant_bounded, local_input_parse, local_input_text
from workspaces.access import member_or_404, page
from workspaces.models import WebinarEvent, Workspace

from .webinars import PITCH_ROLES, webinar_events_list, webinar_pitch_set


class PitchForm(forms.Form):
    event = forms.UUIDField(widget=forms.HiddenInput)
    pitch_at = forms.CharField(
        required=False,
        label="Pitch time",
        help_text="In the workspace's timezone; leave empty to clear it.",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )

    def __init__(self, *args, workspace: Workspace, **kwargs):
        super().__init__(*args, **kwargs)
        self.workspace = workspace

    def clean_event(self):
        event = WebinarEvent.objects.filter(
            workspace=self.workspace, pk=self.cleaned_data["event"]
        ).first()
        if event is None:
            raise forms.ValidationError("This workspace has no such webinar event.")
        return event

    def clean_pitch_at(self):
        value = (self.cleaned_data.get("pitch_at") or "").strip()
        if not value:
            return None
        moment = local_input_parse(value, ZoneInfo(self.workspace.timezone))
        if moment is None:
            raise forms.ValidationError("Give a date and time, like 2026-03-05T18:00.")
        if instant_bounded(moment) is None:
            raise forms.ValidationError(
                "Give a time between the years 1 and 9999 that the workspace's timezone can hold."
            )
        return moment


def _pitch_workspace(request, workspace_id) -> Workspace:
    workspace, _member = member_or_404(
        request, workspace_id, roles=PITCH_ROLES, doing="sets its webinars' pitch times"
    )
    return workspace


@page
def webinar_pitch(request, workspace_id):
    workspace = _pitch_workspace(request, workspace_id)
    zone = ZoneInfo(workspace.timezone)
    failed, status = None, 200
    if request.method == "POST":
        form = PitchForm(request.POST, workspace=workspace)
        if form.is_valid():
            event = form.cleaned_data["event"]
            actor = Actor.for_user(request.user)
            try:
                webinar_pitch_set(event=event, pitch_at=form.cleaned_data["pitch_at"], actor=actor)
            except InvalidField as refused:
                form.add_error("pitch_at", refused.message)
            else:
                messages.success(request, f"Saved the pitch time of {event.name}.")
                return redirect(request.path)
        failed, status = form, 400
    rows = []
    for event in webinar_events_list(workspace=workspace):
        if failed is not None and failed.data.get("event") == str(event.pk):
            form = failed
        else:
            form = PitchForm(
                initial={"event": event.pk, "pitch_at": local_input_text(event.pitch_at, zone)},
                workspace=workspace,
            )
        # One form per event on the page: each names its fields' ids after its event.
        form.auto_id = f"id_%s-{event.pk}"
        starts = moment_text(event.starts_at)
        rows.append({"event": event, "starts": starts, "form": form})
    context = {
        "workspace": workspace,
        "owner": workspace,
        "rows": rows,
        "timezone": workspace.timezone,
        "section": "webinars",
    }
    return render(request, "integrations/webinar_pitch.html", context, status=status)
