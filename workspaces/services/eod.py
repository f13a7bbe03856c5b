"""The writer of end-of-day reports."""

from __future__ import annotations

from datetime import date, datetime

from core.transactions import in_transaction
from events.services import event_record

from ..models import (
    EodReport,
    Member,
    Workspace,
)
from ..shapes import (
    eod_shape,
)
from .base import RecordInvalid, same_workspace, upsert_changes

EMPTY_REPORT = (
    "Fill in at least one of the report's fields (a count, even 0, or a text): an empty "
    "report is not filed."
)


def eod_fields_filled(fields: dict | None) -> bool:
    """Whether a report says anything: a count (0 included) or a text that is not blank."""
    return any(
        not (isinstance(value, str) and not value.strip()) and value is not None
        for value in (fields or {}).values()
    )


@in_transaction
def eod_upsert(
    *,
    workspace: Workspace,
    external_id: str | None,
    member: Member,
    date: date,
    submitted_at: datetime,
    fields: dict | None = None,
):
    same_workspace(workspace, "member", member)
    if not eod_fields_filled(fields):
        # Every source alike (the form, the API, the import): an empty report would count
        # as filed in the compliance figures.
        raise RecordInvalid("fields", EMPTY_REPORT)
    same_day = EodReport.objects.filter(member=member, date=date)
    if external_id is None:
        # A report filed in the app: the member's one report of the day, edited when
        # filed again.
        return _eod_of_the_day(
            workspace=workspace,
            report=same_day.first(),
            values={"member": member, "date": date, "submitted_at": submitted_at},
            fields=fields or {},
        )
    clash = same_day.exclude(external_id=external_id).first()
    if clash is not None:
        if clash.external_id is not None:
            raise RecordInvalid(
                "date", f"This member already has report {clash.external_id!r} for {date}."
            )
        # A report filed in the app for that day becomes this record: one per member per day.
        clash.external_id = external_id
        clash.save(update_fields=["external_id"])
    report, created, before = upsert_changes(
        EodReport,
        workspace=workspace,
        external_id=external_id,
        values={
            "member": member,
            "date": date,
            "submitted_at": submitted_at,
            "fields": fields or {},
        },
    )
    if created or before:
        event_record(workspace=workspace, type="eod.submitted", data=eod_shape(report))
    return report, created


def _eod_of_the_day(*, workspace: Workspace, report: EodReport | None, values: dict, fields):
    created = report is None
    if created:
        report = EodReport.objects.create(workspace=workspace, fields=fields, **values)
    else:
        report.fields = fields
        report.submitted_at = values["submitted_at"]
        report.save(update_fields=["fields", "submitted_at"])
    event_record(workspace=workspace, type="eod.submitted", data=eod_shape(report))
    return report, created
