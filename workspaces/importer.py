"""The import of a JSON Lines file of sales records (manage.py import_records).

Each line is one record: its type, its own id and its members. A serializer per type
(workspaces.import_lines) reads a line's members into the arguments of that type's writer in
workspaces.services; references name records of earlier types by their ids. The whole
file is written in one transaction, or nothing of it, and the kept values of
everything it touched are refreshed once, at the end.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.db import IntegrityError, transaction
from rest_framework import serializers

from audit.services import Actor, audit_record
from core.errors import InvalidField, first_field_error
from core.parsers import body_check, too_deep

from .import_lines import (
    AdSpendLine,
    CallLine,
    CommissionRuleLine,
    EodLine,
    FunnelEventLine,
    GoalLine,
    LeadLine,
    MemberLine,
    OutcomeLine,
    PaymentLine,
    RefundLine,
    RegistrationLine,
    RescheduleLine,
    SaleLine,
    TouchLine,
    WebinarEventLine,
)

# The parsers of a line's members, named here too for whoever reads them from the import.
from .import_lines import money_to_minor as money_to_minor
from .import_lines import parse_date as parse_date
from .import_lines import parse_time as parse_time
from .kept import (
    calls_outcome_refresh,
    calls_replaced_refresh,
    funnels_progress_touch,
    leads_calls_refresh,
    leads_first_contact_refresh,
    leads_sales_refresh,
    registrations_booked_refresh,
)
from .models import (
    AdSpend,
    Call,
    CommissionRule,
    EodReport,
    FunnelEvent,
    Goal,
    Lead,
    Member,
    Outcome,
    Payment,
    Refund,
    Registration,
    Sale,
    Touch,
    WebinarEvent,
    Workspace,
)
from .services import (
    RecordInvalid,
    ad_spend_upsert,
    call_rescheduled_from_set,
    call_upsert,
    calls_write_many,
    commission_rule_upsert,
    eod_upsert,
    funnel_event_upsert,
    goal_upsert,
    lead_upsert,
    leads_create,
    outcome_upsert,
    outcomes_create,
    payment_upsert,
    payments_create,
    refund_upsert,
    registration_upsert,
    sale_upsert,
    sales_create,
    touch_upsert,
    webinar_event_upsert,
)
from .services.goals import GoalsRefused
from .tenancy import member_upsert

IMPORT_ACTOR = Actor(kind="command", id="import_records", label="manage.py import_records")


class ImportLineError(Exception):
    """A line of an import file that cannot be used; nothing of the file is written."""

    def __init__(self, line: int, field: str | None, message: str):
        self.line = line
        self.field = field
        self.message = message
        where = f"line {line}, field '{field}'" if field else f"line {line}"
        super().__init__(f"{where}: {message}")


# --- the import ----------------------------------------------------------------------

# Types in the order they are written, so a record may name one of an earlier type
# wherever it stands in the file.
IMPORT_TYPES = (
    "member",
    "lead",
    "touch",
    "webinar_event",
    "registration",
    "call",
    "outcome",
    "sale",
    "payment",
    "refund",
    "eod",
    "funnel_event",
    "commission_rule",
    "ad_spend",
    "goal",
)

_MODELS = {
    "member": Member,
    "lead": Lead,
    "touch": Touch,
    "call": Call,
    "outcome": Outcome,
    "sale": Sale,
    "payment": Payment,
    "refund": Refund,
    "eod": EodReport,
    "webinar_event": WebinarEvent,
    "registration": Registration,
    "funnel_event": FunnelEvent,
    "commission_rule": CommissionRule,
    "ad_spend": AdSpend,
    "goal": Goal,
}


@dataclass
class _Line:
    number: int
    type: str
    id: str
    data: dict


@dataclass
class ImportResult:
    counts: dict = field(default_factory=dict)  # type -> {"created": n, "updated": n}

    @property
    def total(self) -> int:
        return sum(c["created"] + c["updated"] for c in self.counts.values())


def _call_write(*, touched: dict, rescheduled_from, **values):
    """A call; what it replaces is resolved once every call is written, unless the call is
    held already, replacing the call named (written again, it keeps it, announcing
    nothing)."""
    replaces = None
    if rescheduled_from is not None:
        replaces = (
            Call.objects.filter(
                workspace=values["workspace"],
                external_id=rescheduled_from,
                pk__in=Call.objects.filter(
                    workspace=values["workspace"], external_id=values["external_id"]
                ).values("rescheduled_from"),
            )
            .order_by()
            .first()
        )
    call, created = call_upsert(
        **values, rescheduled_from=replaces, refresh=False, touched=touched["booking_leads"]
    )
    touched["calls"].add(call.pk)
    if rescheduled_from is not None and replaces is None:
        touched["reschedules"].append((call, rescheduled_from))
    return call, created


def _lead_write(*, touched: dict, **values):
    return lead_upsert(**values, tags_known=touched["utm_tags"])


def _member_write(*, touched: dict, actor: Actor, by_role: str, **values):
    """Members change through tenancy's writer: the Members page's rules, checked against
    the role of the person who brought the file, and an audit event for each member made
    or changed."""
    return member_upsert(**values, actor=actor, by_role=by_role)


def _goal_write(*, touched: dict, by_role: str, **values):
    """Goals are set by owners, admins and managers: the writer checks the role of the
    person who brought the file."""
    return goal_upsert(**values, by_role=by_role)


def _collecting(writer, key: str | None):
    """The writer, collecting what to refresh in touched[key] (the import refreshes once)."""

    def write(*, touched: dict, **values):
        if key is not None:
            values["touched"] = touched[key]
        return writer(**values)

    return write


# Per type: the serializer reading its line and the writer it is written with.
_KINDS = {
    "member": (MemberLine, _member_write),
    "lead": (LeadLine, _lead_write),
    "touch": (TouchLine, _collecting(touch_upsert, "leads")),
    "call": (CallLine, _call_write),
    "outcome": (OutcomeLine, _collecting(outcome_upsert, "calls")),
    "sale": (SaleLine, _collecting(sale_upsert, "sale_leads")),
    "payment": (PaymentLine, _collecting(payment_upsert, "sale_leads")),
    "refund": (RefundLine, _collecting(refund_upsert, None)),
    "eod": (EodLine, _collecting(eod_upsert, None)),
    "webinar_event": (WebinarEventLine, _collecting(webinar_event_upsert, "events")),
    "registration": (RegistrationLine, _collecting(registration_upsert, "booking_leads")),
    "funnel_event": (FunnelEventLine, _collecting(funnel_event_upsert, "funnel_leads")),
    "commission_rule": (CommissionRuleLine, _collecting(commission_rule_upsert, None)),
    "ad_spend": (AdSpendLine, _collecting(ad_spend_upsert, None)),
    "goal": (GoalLine, _goal_write),
}


def _line_read(serializer_class, data: dict, context: dict) -> dict:
    """The line's members as writer arguments; RecordInvalid naming the first at fault.

    One reader per type serves every line of an import: a serializer's fields are copied
    from its class whenever one is made, which costs more than reading a line. A reader
    validates as is_valid() does (run_validation), with the line as its initial data."""
    readers = context["readers"]
    reader = readers.get(serializer_class)
    if reader is None:
        reader = readers[serializer_class] = serializer_class(context=context)
    reader.initial_data = data
    try:
        return dict(reader.run_validation(data))
    except serializers.ValidationError as error:
        field, message = first_field_error(error.detail) or ("", "is not valid.")
        raise RecordInvalid(field or None, message) from None


def _write(line: _Line, context: dict, touched: dict):
    serializer_class, write = _KINDS[line.type]
    values = _line_read(serializer_class, line.data, context)
    if line.type == "member":
        values["actor"] = context["actor"]
        values["by_role"] = context["by_role"]
    elif line.type == "goal":
        values["by_role"] = context["by_role"]
    return write(workspace=context["workspace"], external_id=line.id, touched=touched, **values)


def line_parse(number: int, raw: str) -> _Line:
    """One line read as a record: a JSON object, nested no deeper and holding no text a
    database cannot store (the APIs' body rules, core.parsers), with its type and id."""
    try:
        data = json.loads(raw, parse_float=Decimal)
    except RecursionError:
        refused = too_deep(raw)
        raise ImportLineError(number, refused.extra["field"], refused.message) from None
    except ValueError as error:
        raise ImportLineError(number, None, f"not valid JSON ({error}).") from None
    if not isinstance(data, dict):
        raise ImportLineError(number, None, "each line must be one JSON object.")
    try:
        body_check(data)
    except InvalidField as error:
        raise ImportLineError(number, error.extra["field"], error.message) from None
    type_ = data.get("type")
    if type_ not in IMPORT_TYPES:
        raise ImportLineError(
            number, "type", f"unknown type {type_!r}; use one of {', '.join(IMPORT_TYPES)}."
        )
    external_id = data.get("id")
    if isinstance(external_id, int) and not isinstance(external_id, bool):
        external_id = str(external_id)
    if not isinstance(external_id, str) or not external_id.strip():
        raise ImportLineError(number, "id", "every record carries its own id, a string.")
    if len(external_id) > 200:
        raise ImportLineError(number, "id", "an id has at most 200 characters.")
    return _Line(number=number, type=type_, id=external_id, data=data)


def _parse_lines(lines: Iterable[str]) -> list[_Line]:
    return [line_parse(number, raw) for number, raw in enumerate(lines, start=1) if raw.strip()]


def _sorted(parsed: list[_Line]) -> list[_Line]:
    """Types in the order they are written (IMPORT_TYPES), each in the file's order."""
    order = {name: index for index, name in enumerate(IMPORT_TYPES)}
    return sorted(parsed, key=lambda line: (order[line.type], line.number))


def _touched_new() -> dict:
    return {
        "leads": set(),
        "calls": set(),
        "reschedules": [],
        "sale_leads": set(),
        "funnel_leads": set(),
        "booking_leads": set(),
        "events": set(),
        "utm_tags": {},  # {UTM tags: UtmTags id}, for lead_upsert (one transaction)
    }


def _context_new(workspace: Workspace, actor: Actor, by_role: str) -> dict:
    # cache: (model, id) -> record, shared by the lines of one import: a record named by
    # many lines is read once.
    # journal: the cache's keys in the order the import's own writes added them, so a
    # batch given back (the check's savepoints) forgets what it made.
    return {
        "workspace": workspace,
        "tz": ZoneInfo(workspace.timezone),
        "cache": {},
        "journal": [],
        "readers": {},
        "actor": actor,
        "by_role": by_role,
    }


def _cache_add(context: dict, line: _Line, obj) -> None:
    key = (_MODELS[line.type], line.id)
    context["cache"][key] = obj
    context["journal"].append(key)


def _line_write(line: _Line, context: dict, touched: dict):
    """Write one line: (record, created), or ImportLineError naming the line and member."""
    try:
        _currency_check(line, context["workspace"].currency)
        obj, created = _write(line, context, touched)
    except RecordInvalid as error:
        raise ImportLineError(line.number, error.field, error.message) from None
    except InvalidField as error:
        raise ImportLineError(line.number, error.extra["field"], error.message) from None
    except GoalsRefused as error:
        raise ImportLineError(line.number, "type", error.message) from None
    except IntegrityError as error:
        raise ImportLineError(
            line.number, None, f"conflicts with a record already held ({error})."
        ) from None
    _cache_add(context, line, obj)
    return obj, created


def _currency_check(line: _Line, currency: str) -> None:
    record_currency = line.data.get("currency")
    if record_currency is not None and str(record_currency).upper() != currency:
        raise RecordInvalid(
            "currency",
            f"This workspace keeps {currency}; a record in {record_currency} is refused.",
        )


# --- writing a type's lines in batches -------------------------------------------------

# Consecutive lines of one type are written together, at most this many at once.
CHUNK_LINES = 500


def _leads_many(workspace: Workspace, rows: list[dict], collected: dict) -> list:
    return leads_create(workspace=workspace, leads=rows, tags_known=collected["utm_tags"])


def _calls_many(workspace: Workspace, rows: list[dict], collected: dict) -> list:
    # What a call replaces is resolved once every call is written (_reschedules_resolve).
    targets = [values.pop("rescheduled_from") for values in rows]
    calls = calls_write_many(
        workspace=workspace,
        calls=[{**values, "rescheduled_from": None} for values in rows],
        touched=collected["booking_leads"],
    )
    collected["calls"] |= {call.pk for call in calls}
    collected["reschedules"] += [
        (call, target) for call, target in zip(calls, targets, strict=True) if target is not None
    ]
    return calls


def _outcomes_many(workspace: Workspace, rows: list[dict], collected: dict) -> list:
    return outcomes_create(workspace=workspace, outcomes=rows, touched=collected["calls"])


def _sales_many(workspace: Workspace, rows: list[dict], collected: dict) -> list:
    return sales_create(workspace=workspace, sales=rows, touched=collected["sale_leads"])


def _payments_many(workspace: Workspace, rows: list[dict], collected: dict) -> list:
    return payments_create(workspace=workspace, payments=rows, touched=collected["sale_leads"])


# Per type: the writer of many new records of it at once (what its line's writer does for
# one, in one insert of the records and one of their events).
_MANY = {
    "lead": _leads_many,
    "call": _calls_many,
    "outcome": _outcomes_many,
    "sale": _sales_many,
    "payment": _payments_many,
}


def _chunks(ordered: list[_Line]) -> Iterable[list[_Line]]:
    """The sorted lines as runs of one type, each of at most CHUNK_LINES."""
    run: list[_Line] = []
    for line in ordered:
        if run and (line.type != run[0].type or len(run) == CHUNK_LINES):
            yield run
            run = []
        run.append(line)
    if run:
        yield run


class _ChunkRefused(Exception):
    """A line of the chunk cannot be written together with the others."""


def _chunk_many(chunk: list[_Line], context: dict, touched: dict) -> dict[int, tuple]:
    """The chunk's lines of records new to the workspace (and named once in it) written at
    once: {line number: (record, created)}. Every line is read first; nothing is written
    (and _ChunkRefused raised) when one cannot be read or the batch is refused."""
    workspace = context["workspace"]
    try:
        read = []
        for line in chunk:
            _currency_check(line, workspace.currency)
            read.append(_line_read(_KINDS[line.type][0], line.data, context))
    except (RecordInvalid, InvalidField):
        raise _ChunkRefused from None
    model = _MODELS[chunk[0].type]
    named = Counter(line.id for line in chunk)
    held = set(
        model.objects.filter(workspace=workspace, external_id__in=list(named)).values_list(
            "external_id", flat=True
        )
    )
    new = [
        (line, values)
        for line, values in zip(chunk, read, strict=True)
        if named[line.id] == 1 and line.id not in held
    ]
    if not new:
        return {}
    collected = {**_touched_new(), "utm_tags": dict(touched["utm_tags"])}
    try:
        with transaction.atomic():
            made = _MANY[chunk[0].type](
                workspace, [{**values, "external_id": line.id} for line, values in new], collected
            )
    except (RecordInvalid, InvalidField, GoalsRefused, IntegrityError):
        raise _ChunkRefused from None
    for key, value in collected.items():
        if isinstance(value, set):
            touched[key] |= value
        elif isinstance(value, list):
            touched[key] += value
        else:
            touched[key] = value
    written = {}
    for (line, _values), obj in zip(new, made, strict=True):
        _cache_add(context, line, obj)
        written[line.number] = (obj, True)
    return written


def _chunk_write(chunk: list[_Line], context: dict, touched: dict) -> list[tuple]:
    """Write a run of lines of one type: [(line, record, created)] in the run's order, or
    ImportLineError naming the first line that cannot be used, as writing them one by one
    would. Lines of new records of a type with a writer of many (_MANY) are written at
    once; the others, and every line of a run where that is refused, one by one."""
    written = {}
    if chunk[0].type in _MANY and len(chunk) > 1:
        try:
            written = _chunk_many(chunk, context, touched)
        except _ChunkRefused:
            written = {}
    results = []
    for line in chunk:
        obj, created = written.get(line.number) or _line_write(line, context, touched)
        results.append((line, obj, created))
    return results


def _reschedules_resolve(*, context: dict, touched: dict, line_of_call: dict) -> None:
    """Point each call at the call it replaces, named by id anywhere in the file."""
    for call, target_id in touched["reschedules"]:
        try:
            values = _line_read(RescheduleLine, {"rescheduled_from": target_id}, context)
            target = values["rescheduled_from"]
            if target.pk == call.pk:
                raise RecordInvalid("rescheduled_from", "A call cannot replace itself.")
        except RecordInvalid as error:
            raise ImportLineError(line_of_call[call.pk], error.field, error.message) from None
        call_rescheduled_from_set(call=call, replaces=target)


def _kept_refresh(*, workspace: Workspace, touched: dict) -> None:
    # All calls: some may no longer reschedule anything, imported again without the member.
    calls_replaced_refresh(workspace=workspace)
    calls_outcome_refresh(workspace=workspace, call_ids=touched["calls"])
    leads_calls_refresh(workspace=workspace, lead_ids=touched["booking_leads"])
    leads_first_contact_refresh(workspace=workspace, lead_ids=touched["leads"])
    leads_sales_refresh(workspace=workspace, lead_ids=touched["sale_leads"])
    funnels_progress_touch(workspace=workspace, pairs=touched["funnel_leads"])
    registrations_booked_refresh(
        workspace=workspace, lead_ids=touched["booking_leads"], event_ids=touched["events"]
    )


def records_import(
    *,
    workspace: Workspace,
    lines: Iterable[str],
    by_role: str,
    actor: Actor = IMPORT_ACTOR,
    source: str = "",
    progress: Callable[[int, int], None] | None = None,
) -> ImportResult:
    """Write every record of a JSON Lines file, or none: one transaction. `by_role` is the
    workspace role of the person who brought the file (an operator of the command line acts
    as an owner): its member lines are checked against it by the Members page's rules.

    Raises ImportLineError naming the first line (and member) that cannot be used.
    """
    parsed = _sorted(_parse_lines(lines))
    counts: Counter = Counter()
    touched = _touched_new()
    line_of_call = {}
    context = _context_new(workspace, actor, by_role)
    with transaction.atomic():
        done = 0
        for chunk in _chunks(parsed):
            for line, obj, created in _chunk_write(chunk, context, touched):
                if line.type == "call":
                    line_of_call[obj.pk] = line.number
                counts[(line.type, "created" if created else "updated")] += 1
            done += len(chunk)
            if progress is not None:
                progress(done, len(parsed))
        _reschedules_resolve(context=context, touched=touched, line_of_call=line_of_call)
        _kept_refresh(workspace=workspace, touched=touched)

        result = ImportResult(
            counts={
                type_: {
                    "created": counts[(type_, "created")],
                    "updated": counts[(type_, "updated")],
                }
                for type_ in IMPORT_TYPES
                if counts[(type_, "created")] or counts[(type_, "updated")]
            }
        )
        audit_record(
            actor=actor,
            action="records.imported",
            target_type="workspace",
            target_id=workspace.pk,
            workspace=workspace,
            detail={"source": source, "records": result.total, "counts": result.counts},
        )
    return result


def _lines_parse_all(lines: Iterable[str]) -> tuple[list[_Line], list[ImportLineError]]:
    """Every line that can be read, and the refusals of those that cannot."""
    parsed, errors = [], []
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            parsed.append(line_parse(number, raw))
        except ImportLineError as error:
            errors.append(error)
    return parsed, errors


def _line_try(line: _Line, context: dict, touched: dict) -> ImportLineError | None:
    """Write one line in a savepoint; its refusal, if any, with the savepoint rolled back."""
    mark = _kept_mark(context, touched)
    try:
        with transaction.atomic():
            obj, _created = _line_write(line, context, touched)
    except ImportLineError as error:
        # What the rolled-back savepoint made is not there to name.
        _kept_rewind(context, touched, mark)
        return error
    if line.type == "call":
        touched["line_of_call"][obj.pk] = line.number
    return None


def _kept_mark(context: dict, touched: dict) -> tuple:
    """Where a batch's savepoint starts, to give back what the batch made: the records it
    cached, the reschedules it collected and the UTM tags it looked up. (The check
    refreshes nothing, so the other keys' extra ids are left.)"""
    return len(context["journal"]), len(touched["reschedules"]), dict(touched["utm_tags"])


def _kept_rewind(context: dict, touched: dict, mark: tuple) -> None:
    journal_at, reschedules_at, tags = mark
    for key in context["journal"][journal_at:]:
        context["cache"].pop(key, None)
    del context["journal"][journal_at:]
    del touched["reschedules"][reschedules_at:]
    touched["utm_tags"] = tags


def _batch_try(batch: list[_Line], context: dict, touched: dict) -> bool:
    """Write a run of lines in one savepoint, as the import writes it; False (the savepoint
    and what the run made given back) when a line of it is refused."""
    mark = _kept_mark(context, touched)
    try:
        with transaction.atomic():
            results = _chunk_write(batch, context, touched)
    except ImportLineError:
        _kept_rewind(context, touched, mark)
        return False
    for line, obj, _created in results:
        if line.type == "call":
            touched["line_of_call"][obj.pk] = line.number
    return True


def records_check(
    *,
    workspace: Workspace,
    lines: Iterable[str],
    by_role: str,
    actor: Actor = IMPORT_ACTOR,
    limit: int = 50,
    progress: Callable[[int, int], None] | None = None,
) -> list[ImportLineError]:
    """What importing the lines would refuse, line by line (at most `limit`), writing
    nothing: every line is written as records_import writes it and the whole is rolled
    back. Lines are written as the import writes them, a run of one type (_chunks) to a
    savepoint; a run with a refused line is written again a line to a savepoint, so a line
    that fails is left out and a line naming its record fails too ("No lead with id ..."),
    as it would in the import."""
    parsed, errors = _lines_parse_all(lines)
    touched = {**_touched_new(), "line_of_call": {}}
    context = _context_new(workspace, actor, by_role)
    done = 0
    with transaction.atomic():
        for batch in _chunks(_sorted(parsed)):
            if len(errors) >= limit:
                break
            done += len(batch)
            if progress is not None:
                progress(done, len(parsed))
            if _batch_try(batch, context, touched):
                continue
            for line in batch:
                if len(errors) >= limit:
                    break
                error = _line_try(line, context, touched)
                if error is not None:
                    errors.append(error)
        if len(errors) < limit:
            try:
                with transaction.atomic():
                    _reschedules_resolve(
                        context=context, touched=touched, line_of_call=touched["line_of_call"]
                    )
            except ImportLineError as error:
                errors.append(error)
        transaction.set_rollback(True)
    errors.sort(key=lambda error: error.line)
    return errors[:limit]
