"""Filing work in the app: the post-call, past-call, DM-close and EOD forms as pages, and a
member's open drafts.

A page reads the form with the same serializer the agent API reads its body with, and
files it through the same service (agentapi/services.py): one writer, the same checks and
audit events, and the same `submission_id` idempotency. The page puts a fresh
`submission_id` in the form it renders, so a double click files once, and keeps the
answer the API would give under it. A draft opened from the list pre-fills its form and
closes when it is filed.
"""

import uuid
from datetime import date

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse

from audit.services import Actor
from core.display import day_text, moment_text
from core.errors import ApiError
from core.input import validated
from core.times import InstantInvalid, instant_parse, local_input_parse
from figures.period import local_today, workspace_zone
from workspaces.access import PageForbidden, member_or_404, page
from workspaces.models import Call, Member, Workspace

from . import answers, selectors, services
from .models import Draft
from .page_forms import FilingForm, refusal_words
from .serializers import (
    DmCloseFormSerializer,
    EodFormSerializer,
    PastCallFormSerializer,
    PostCallFormSerializer,
)

# A field of a form page: (name, label, kind, choices).
ATTENDANCE = [("showed", "Showed"), ("no_show", "No-show")]
OUTCOMES = [
    ("closed", "Closed"),
    ("deposit", "Deposit"),
    ("follow_up", "Follow-up"),
    ("no_sale", "No sale"),
    ("disqualified", "Disqualified"),
]
PLANS = [("paid_in_full", "Paid in full"), ("split", "Split"), ("financed", "Financed")]
YES_NO = [("yes", "Yes"), ("no", "No")]
SALE = [
    ("contract_value", "Contract value", "money", None),
    ("cash_collected", "Cash collected today", "money", None),
    ("payment_plan", "Payment plan", "choice", PLANS),
]
FORMS = {
    "post-call": {
        "title": "Post-call form",
        "serializer": PostCallFormSerializer,
        "fields": [
            ("attendance", "Attendance", "choice", ATTENDANCE),
            ("outcome", "Outcome", "choice", OUTCOMES),
            ("offer_made", "Offer made", "bool", YES_NO),
            ("reason", "Reason (no sale, disqualified)", "text", None),
            ("notes", "Notes", "textarea", None),
            *SALE,
        ],
    },
    "past-call": {
        "title": "Past call (no booking)",
        "serializer": PastCallFormSerializer,
        "fields": [
            ("lead_name", "Lead's name", "text", None),
            ("lead_email", "Lead's email", "text", None),
            ("occurred_at", "When it happened", "datetime", None),
            ("outcome", "Outcome", "choice", OUTCOMES),
            ("offer_made", "Offer made", "bool", YES_NO),
            ("reason", "Reason", "text", None),
            ("notes", "Notes", "textarea", None),
            *SALE,
        ],
    },
    "dm-close": {
        "title": "DM close",
        "serializer": DmCloseFormSerializer,
        "fields": [
            ("lead_name", "Lead's name", "text", None),
            ("lead_email", "Lead's email", "text", None),
            ("platform", "Platform (e.g. instagram)", "text", None),
            ("closed_at", "When the sale was agreed", "datetime", None),
            *SALE,
        ],
    },
    "eod": {
        "title": "End-of-day report",
        "serializer": EodFormSerializer,
        "fields": [
            ("date", "Day", "date", None),
            ("dials", "Dials", "count", None),
            ("conversations", "Conversations", "count", None),
            ("bookings", "Calls booked", "count", None),
            ("notes", "Notes", "textarea", None),
        ],
    },
}
EOD_FIELDS = ("dials", "conversations", "bookings", "notes")
SERVICES = {
    "post-call": services.form_post_call_file,
    "past-call": services.form_past_call_file,
    "dm-close": services.form_dm_close_file,
    "eod": services.form_eod_file,
}


def _member(request, workspace_id) -> tuple[Workspace, Member]:
    return member_or_404(request, workspace_id)


def _actor(member: Member) -> Actor:
    return Actor(kind="member", id=str(member.pk), label=member.email)


def _local_iso(value: str, zone) -> str:
    """A datetime-local value ("2026-03-05T14:30") as that wall time in the workspace's zone,
    with its offset; a time that names its own offset keeps it."""
    try:
        return instant_parse(value).isoformat()
    except InstantInvalid:
        pass  # no offset of its own: the wall time of a datetime-local field
    moment = local_input_parse(value, zone)
    return value if moment is None else moment.isoformat()  # the serializer names a bad one


def _body(form: str, post, workspace) -> dict:
    """The API body the page's fields make; empty fields are left out, as a caller would."""
    zone = workspace_zone(workspace)
    body = {"submission_id": post.get("submission_id", "")}
    if post.get("draft_id"):
        body["draft_id"] = post["draft_id"]
    for name, _label, kind, _choices in FORMS[form]["fields"]:
        value = post.get(name, "").strip()
        if (
            not value
            or name in ("lead_name", "lead_email")
            or (form == "eod" and name in EOD_FIELDS)
        ):
            continue
        if kind == "bool":
            body[name] = value == "yes"
        elif kind == "datetime":
            body[name] = _local_iso(value, zone)
        else:
            body[name] = value
    if form in ("past-call", "dm-close"):
        body["lead"] = {
            "name": post.get("lead_name", "").strip(),
            "email": post.get("lead_email", "").strip(),
        }
    if form == "eod":
        counts = {}
        for name in EOD_FIELDS:
            value = post.get(name, "").strip()
            if value:
                counts[name] = int(value) if name != "notes" and value.isdigit() else value
        body["fields"] = counts
    return body


def _initial(form: str, draft: Draft | None) -> dict:
    values = {"submission_id": str(uuid.uuid4())}
    if draft is None:
        return values
    values["draft_id"] = str(draft.pk)
    fields = dict(draft.fields or {})
    lead = fields.pop("lead", None)
    if isinstance(lead, dict):
        values.update(lead_name=lead.get("name", ""), lead_email=lead.get("email", ""))
    counts = fields.pop("fields", None)
    if isinstance(counts, dict):
        values.update({key: str(value) for key, value in counts.items()})
    for key, value in fields.items():
        if isinstance(value, bool):
            values[key] = "yes" if value else "no"
        elif value is not None:
            values[key] = str(value)
    return values


def _file(request, workspace, member, form: str, call, draft):
    body = _body(form, request.POST, workspace)
    if call is not None:
        body["call_id"] = str(call.pk)
    context = {"exponent": workspace.currency_exponent, "currency": workspace.currency}
    if draft is not None:
        context["draft"] = draft
    data = validated(FORMS[form]["serializer"], body, context=context)
    kwargs = {
        "workspace": workspace,
        "member": member,
        "actor": _actor(member),
        "data": data,
        "draft": draft,
    }
    if form == "post-call":
        kwargs["call"] = call
    elif form in ("past-call", "dm-close"):
        kwargs["lead"] = None
    filing = SERVICES[form](**kwargs)
    if filing.earlier is not None:
        messages.info(request, "This form was filed already; nothing was filed twice.")
        return False
    services.form_answer_keep(
        workspace=workspace,
        filing=filing,
        status_code=200 if filing.edited else 201,
        body=answers.filing_answer(filing, workspace),
    )
    return True


def _eod_day(value, today):
    """The day the EOD form opens on: ?date= (a day up to today), else today."""
    try:
        day = date.fromisoformat(str(value))
    except ValueError:
        return today
    return day if day <= today else today


def _eod_context(workspace, member, today, day, values) -> dict:
    """What the EOD form says of the days filed already, and the day's report to edit."""
    filed = selectors.eod_reports_filed(workspace=workspace, member=member, last_day=today)
    earlier = filed.get(day)
    if earlier is not None and "dials" not in values:
        for name in EOD_FIELDS:
            if name in (earlier.fields or {}):
                values[name] = str(earlier.fields[name])
    return {
        "earlier": earlier,
        "filed_days": {
            key.isoformat(): f"You filed the report of {day_text(key)} at "
            f"{moment_text(report.submitted_at)}: filing this day again replaces it."
            for key, report in filed.items()
        },
    }


def _eod_prepare(request, workspace, member, form, today, values) -> tuple:
    """The EOD form's day (prefilled with the workspace's today) and its filed days."""
    day = _eod_day(values.get("date") or request.GET.get("date", ""), today)
    if form != "eod":
        return day, {}
    values.setdefault("date", day.isoformat())
    return day, _eod_context(workspace, member, today, day, values)


def _filed_words(form: str, filing_earlier_report, day) -> str:
    if form != "eod":
        return f"{FORMS[form]['title']} filed."
    if filing_earlier_report is not None:
        return (
            f"End-of-day report of {day_text(day)} filed. It replaces the one you filed at "
            f"{moment_text(filing_earlier_report.submitted_at)}."
        )
    return f"End-of-day report of {day_text(day)} filed."


def _call_and_draft(request, workspace, member, form, call_id):
    """The call a post-call form files (held by the member) and the draft it checks."""
    call = None
    if call_id is not None:
        call = Call.objects.filter(workspace=workspace, pk=call_id).select_related("lead").first()
        if call is None:
            raise Http404("No call of this workspace has that id.")
        if member.pk not in (call.closer_id, call.setter_id):
            raise PageForbidden(
                "You hold neither the closer nor the setter slot of this call; only they file "
                "its post-call form."
            )
    draft = None
    draft_id = request.POST.get("draft_id") or request.GET.get("draft")
    if draft_id:
        draft = Draft.objects.filter(
            workspace=workspace, member=member, pk=draft_id, status=Draft.Status.OPEN
        ).first()
        if draft is None or draft.form != form:
            raise Http404("No open draft of yours has that id.")
    return call, draft


def _submit(request, page_form, filing) -> bool | None:
    """File a form the page found whole (True; None when it was filed already); a refusal
    of the API's is put beside its field (False)."""
    if not page_form.is_valid():
        return False
    try:
        filed = _file(request, *filing)
    except ApiError as refused:
        field = str(refused.extra.get("field", ""))
        field = {"lead.name": "lead_email", "lead.email": "lead_email", "lead": "lead_email"}.get(
            field, field.removeprefix("fields.").split(".")[0]
        )
        target, words = refusal_words(page_form, field, refused.message)
        page_form.add_error(target, words)
        return False
    return True if filed else None


@page
def form_page(request, workspace_id, form, call_id=None):
    workspace, member = _member(request, workspace_id)
    if form not in FORMS or (form == "post-call") != (call_id is not None):
        raise Http404("No such form.")
    call, draft = _call_and_draft(request, workspace, member, form, call_id)
    today = local_today(workspace)
    values, status = _initial(form, draft), 200
    if request.method == "POST":
        values = {key: request.POST.get(key, "") for key in request.POST}
    day, eod = _eod_prepare(request, workspace, member, form, today, values)
    page_form = FilingForm(
        request.POST if request.method == "POST" else None,
        form_key=form,
        spec=FORMS[form],
        exponent=workspace.currency_exponent,
        today=today,
        checks=draft is None,
        initial=values,
    )
    if request.method == "POST":
        filed = _submit(request, page_form, (workspace, member, form, call, draft))
        if filed is not False:
            if filed:
                messages.success(request, _filed_words(form, eod.get("earlier"), day))
            return redirect("dashboard-board", workspace_id=workspace.pk)
        status = 400
    context = {
        "workspace": workspace,
        "member": member,
        "form_key": form,
        "form": FORMS[form],
        "page_form": page_form,
        "call": call,
        "zone": workspace_zone(workspace),
        "draft": draft,
        "values": values,
        "today": today,
        **eod,
    }
    return render(request, "agentapi/form.html", context, status=status)


@page
def work_page(request, workspace_id):
    workspace, member = _member(request, workspace_id)
    drafts = selectors.drafts_open(workspace=workspace, member=member)
    context = {
        "workspace": workspace,
        "member": member,
        "drafts": drafts,
        "board_url": reverse("dashboard-board", args=[workspace.pk]),
    }
    return render(request, "agentapi/work.html", context)
