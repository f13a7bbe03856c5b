"""What a workspace's records are, named without their database ids, so a batch applied
through a provider's fast path can be compared with the same batch applied one by one."""

import json

from audit.models import AuditEvent
from events.models import Event as Announced
from integrations.models import Connection, Event
from workspaces.models import Call, Lead, Member, Payment, Refund, Sale


def _labels(ws) -> dict[str, str]:
    """Every record's id in the workspace, by a name that does not depend on it."""
    labels = {}
    for model, name in (
        (Lead, "lead"),
        (Sale, "sale"),
        (Payment, "payment"),
        (Refund, "refund"),
        (Call, "call"),
    ):
        for pk, external_id, *rest in model.objects.filter(workspace=ws).values_list(
            "pk", "external_id", *(["email"] if model is Lead else [])
        ):
            labels[str(pk)] = f"{name}:{external_id or rest[0] if rest else external_id}"
    for pk, email in Member.objects.filter(workspace=ws).values_list("pk", "email"):
        labels[str(pk)] = f"member:{email}"
    return labels


def _named(value, labels):
    if isinstance(value, dict):
        return {key: _named(item, labels) for key, item in value.items()}
    if isinstance(value, list):
        return [_named(item, labels) for item in value]
    if isinstance(value, str):
        return labels.get(value, value)
    return value


def snapshot(ws) -> dict:
    """The workspace's records, the connection's events and counters, the audit events of
    the outcomes and the events announced to integrators, in a comparable form."""
    labels = _labels(ws)

    def rows(queryset, *fields):
        return sorted(
            (
                tuple(_named(str(v) if v is not None else None, labels) for v in row)
                for row in queryset.values_list(*fields)
            ),
            key=repr,
        )

    audits = AuditEvent.objects.filter(target_type="integration_event", workspace=ws)
    return {
        "leads": rows(
            Lead.objects.filter(workspace=ws),
            "pk",
            "name",
            "email",
            "created_at",
            "status",
            "setter",
            "cash_collected",
            "has_sale",
            "utm_source",
        ),
        "sales": rows(Sale.objects.filter(workspace=ws), "pk", "cash_collected"),
        "payments": rows(
            Payment.objects.filter(workspace=ws),
            "pk",
            "sale",
            "amount",
            "status",
            "paid_at",
            "closer",
            "setter",
        ),
        "refunds": rows(
            Refund.objects.filter(workspace=ws), "pk", "payment", "sale", "kind", "at", "amount"
        ),
        "calls": rows(
            Call.objects.filter(workspace=ws),
            "pk",
            "lead",
            "booked_at",
            "scheduled_for",
            "closer",
            "setter",
            "status",
            "rescheduled_from",
            "replaced",
            "attendance",
            "outcome",
            "offer_made",
        ),
        "events": rows(
            Event.objects.filter(workspace=ws),
            "event_id",
            "state",
            "hold_code",
            "hold_reason",
            "waits_for",
            "attempts",
        ),
        "counters": list(
            Connection.objects.filter(workspace=ws).values_list(
                "events_received", "events_applied", "events_held"
            )
        ),
        "audit": sorted(
            (a.action, a.reason, json.dumps(a.detail, sort_keys=True), a.actor_kind) for a in audits
        ),
        "announced": sorted(
            (e.type, json.dumps(_named(e.data, labels), sort_keys=True))
            for e in Announced.objects.filter(workspace_id=ws.pk)
        ),
    }


def applied_one_by_one(monkeypatch, provider, run, *args):
    """run(*args) with the provider's fast path off: every event mapped one by one."""
    with monkeypatch.context() as patch:
        patch.setattr(type(provider), "apply_many", None)
        return run(*args)


def spy(monkeypatch, module) -> list:
    """The events the module's fast path applied: (event id, outcome) of each."""
    seen = []
    real = module.events_map_many

    def spying(*, events, connection):
        outcomes = real(events=events, connection=connection)
        by_pk = {event.pk: event for event in events}
        seen.extend((by_pk[pk].event_id, outcome) for pk, outcome in outcomes.items())
        return outcomes

    monkeypatch.setattr(module, "events_map_many", spying)
    return seen
