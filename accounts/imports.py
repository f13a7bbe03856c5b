"""The Import page: records in without a terminal (`/settings/<workspace id>/import/`).

Owners and admins upload a CSV of one record type (a template per type is offered,
workspaces.import_csv) or the JSON Lines file `manage.py import_records` reads. The file is
kept as it arrives, then converted and checked by the worker, writing nothing
(workspaces.services.uploads); its page shows the first rows and every error by line and
column. Confirming queues the import for the worker (both on the `uploads` queue); the
page shows each step's progress (static/js/import.js polls the status address), then what
arrived, with links to those records, or the line that stopped it, nothing of the file
written. The person who uploaded a file, or an owner, may cancel it until it is imported.
Other roles get the 403 page, anyone else (and another workspace's upload) the 404 page.
"""

from django import forms
from django.contrib import messages
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from workspaces.access import PageForbidden, member_or_404, page
from workspaces.import_csv import COLUMNS, columns_of, template_csv
from workspaces.models import Member, RecordUpload
from workspaces.services.uploads import (
    CANCELLABLE,
    JSON_LINES,
    UploadRefused,
    upload_cancel,
    upload_confirm,
    upload_create,
    upload_may_cancel,
    upload_progress,
)

from .pages import request_actor
from .selectors import upload_links, uploads_recent

# A file larger than this is refused before it is read.
UPLOAD_MAX_BYTES = 20 * 1024 * 1024

TYPE_NAMES = {
    "member": "Members",
    "lead": "Leads",
    "touch": "Touches",
    "webinar_event": "Webinar events",
    "registration": "Webinar registrations",
    "call": "Calls",
    "outcome": "Call outcomes",
    "sale": "Sales",
    "payment": "Payments",
    "refund": "Refunds",
    "eod": "EOD reports",
    "funnel_event": "Funnel events",
    "commission_rule": "Commission rules",
    "ad_spend": "Ad spend",
    "goal": "Goals",
}


class UploadForm(forms.Form):
    kind = forms.ChoiceField(
        label="What the file holds",
        choices=[(record_type, f"CSV: {TYPE_NAMES[record_type]}") for record_type in COLUMNS]
        + [(JSON_LINES, "JSON Lines: any record types (the import_records file)")],
    )
    file = forms.FileField(label="File")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > UPLOAD_MAX_BYTES:
            raise forms.ValidationError(
                f"The file is {upload.size / 2**20:.1f} MB; the import takes files up to "
                f"{UPLOAD_MAX_BYTES // 2**20} MB. Split it into several."
            )
        return upload


# Why a confirmation changed nothing, by the upload's state when it was sent.
_NOT_CONFIRMED = {
    RecordUpload.State.CHECKING: "This file is still being checked: confirm it once the check ends.",
    RecordUpload.State.REFUSED: "This file has errors: nothing can be imported from it.",
}


def _membership(request, workspace_id):
    return member_or_404(request, workspace_id, roles=Member.ADMIN_ROLES, doing="imports records")


def _upload_or_404(workspace, upload_id) -> RecordUpload:
    upload = RecordUpload.objects.filter(workspace=workspace, pk=upload_id).first()
    if upload is None:
        raise Http404("No upload of this workspace has that id.")
    return upload


def _templates():
    return [
        {"type": record_type, "name": TYPE_NAMES[record_type], "columns": columns_of(record_type)}
        for record_type in COLUMNS
    ]


@page
def import_page(request, workspace_id):
    workspace, _me = _membership(request, workspace_id)
    form = UploadForm(request.POST or None, request.FILES or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            file = form.cleaned_data["file"]
            try:
                upload = upload_create(
                    workspace=workspace,
                    user=request.user,
                    file_name=file.name,
                    kind=form.cleaned_data["kind"],
                    content=file.read(),
                    actor=request_actor(request),
                )
            except UploadRefused as refusal:
                form.add_error("file", refusal.message)
            else:
                return redirect(
                    "settings-import-upload", workspace_id=workspace.pk, upload_id=upload.pk
                )
        status = 400
    context = {
        "workspace": workspace,
        "owner": workspace,
        "section": "import",
        "form": form,
        "templates": _templates(),
        "uploads": uploads_recent(workspace=workspace),
    }
    return render(request, "accounts/import.html", context, status=status)


@page
def import_template(request, workspace_id, record_type):
    _membership(request, workspace_id)
    if record_type not in COLUMNS:
        raise Http404("No template has that name.")
    response = HttpResponse(template_csv(record_type), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{record_type}-template.csv"'
    return response


def _counts(upload: RecordUpload, links: dict) -> list[dict]:
    return [
        {
            "type": record_type,
            "name": TYPE_NAMES[record_type],
            "created": count["created"],
            "updated": count["updated"],
            "link": links.get(record_type),
        }
        for record_type, count in upload.counts.items()
    ]


def _progress(upload: RecordUpload) -> dict:
    done, total = upload_progress(upload)
    return {
        "state": upload.state,
        "done": done,
        "total": total,
        "percent": done * 100 // max(total, 1),
    }


def _cancel(request, upload: RecordUpload, me) -> None:
    if not upload_may_cancel(upload, me):
        raise PageForbidden("Only the person who uploaded this file, or an owner, cancels it.")
    if upload_cancel(upload=upload, actor=request_actor(request)):
        messages.success(request, f"{upload.file_name} is cancelled: nothing of it is written.")
    else:
        messages.info(request, "This file can no longer be cancelled.")


@page
def upload_page(request, workspace_id, upload_id):
    workspace, me = _membership(request, workspace_id)
    upload = _upload_or_404(workspace, upload_id)
    if request.method == "POST" and request.POST.get("action") == "cancel":
        _cancel(request, upload, me)
        return redirect("settings-import-upload", workspace_id=workspace.pk, upload_id=upload.pk)
    if request.method == "POST":
        if not upload_confirm(upload=upload, user=request.user, actor=request_actor(request)):
            messages.info(
                request, _NOT_CONFIRMED.get(upload.state, "This file was confirmed already.")
            )
        return redirect("settings-import-upload", workspace_id=workspace.pk, upload_id=upload.pk)
    links = upload_links(upload=upload) if upload.state == RecordUpload.State.IMPORTED else {}
    context = {
        "workspace": workspace,
        "owner": workspace,
        "section": "import",
        "upload": upload,
        "kind_name": "JSON Lines"
        if upload.kind == JSON_LINES
        else f"CSV of {TYPE_NAMES[upload.kind].lower()}",
        "counts": _counts(upload, links),
        "progress": _progress(upload),
        "status_url": reverse(
            "settings-import-status", kwargs={"workspace_id": workspace.pk, "upload_id": upload.pk}
        ),
        "more_rows": max(upload.records - len(upload.preview.get("rows", [])), 0),
        "error_lines": {error["line"] for error in upload.errors},
        "may_cancel": upload.state in CANCELLABLE and upload_may_cancel(upload, me),
    }
    return render(request, "accounts/import_upload.html", context)


@page
def upload_status(request, workspace_id, upload_id):
    """The upload's state and the worker's progress, for the page's progress bar."""
    workspace, _me = _membership(request, workspace_id)
    upload = _upload_or_404(workspace, upload_id)
    return JsonResponse(_progress(upload))
