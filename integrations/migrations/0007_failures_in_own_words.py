# A failure's stored text is the service's own summary from now on: the provider's message
# (which may echo a credential: an access_token in a URL, a token request's form) is
# written to the worker's log only. The failures stored before are rewritten here, on the
# connection, in the audit log (its reason and its JSON text) and in the events feed's
# `integration.failing` events (which deliveries carry).

import json

from django.db import migrations

# The providers' names and the summaries as integrations.failures.failure_summary writes
# them, frozen here.
_NAMES = {
    "stripe": "Stripe",
    "calendly": "Calendly",
    "zoom": "Zoom",
    "hubspot": "HubSpot",
    "meta": "Meta Ads",
    "google": "Google Ads",
}
_SUMMARIES = {
    "refused": "{name} refused the credential.",
    "unreachable": "{name} could not be reached.",
    "limited": "{name} asked us to slow down.",
}
_UNEXPECTED = "{name} answered in a way we could not use."


def _summary(provider: str, kind: str, words: str = "") -> str:
    if words:
        return words
    name = _NAMES.get(provider, provider)
    return _SUMMARIES.get(kind, _UNEXPECTED).format(name=name)


def failures_reworded(apps, schema_editor):
    Connection = apps.get_model("integrations", "Connection")
    AuditEvent = apps.get_model("audit", "AuditEvent")
    Event = apps.get_model("events", "Event")
    connections = Connection.objects.exclude(last_error="").only(
        "pk", "provider", "last_error", "last_error_kind", "last_error_words"
    )
    for connection in connections.iterator():
        summary = _summary(
            connection.provider, connection.last_error_kind, connection.last_error_words
        )
        if summary != connection.last_error:
            Connection.objects.filter(pk=connection.pk).update(last_error=summary)
    failing = AuditEvent.objects.filter(action="integration.failing").exclude(reason="")
    for event in failing.only("pk", "reason", "detail", "json_text").iterator():
        detail = event.detail or {}
        summary = _summary(str(detail.get("provider", "")), str(detail.get("kind", "")))
        if summary == event.reason:
            continue
        shown = json.loads(event.json_text)
        shown["reason"] = summary
        AuditEvent.objects.filter(pk=event.pk).update(
            reason=summary,
            json_text=json.dumps(shown, ensure_ascii=False, separators=(",", ":")),
        )
    for event in Event.objects.filter(type="integration.failing").only("pk", "data").iterator():
        data = dict(event.data or {})
        if not data.get("error"):
            continue
        kind = (
            Connection.objects.filter(pk=data.get("id"))
            .values_list("last_error_kind", flat=True)
            .first()
            or ""
        )
        summary = _summary(str(data.get("provider", "")), kind)
        if summary != data["error"]:
            data["error"] = summary
            Event.objects.filter(pk=event.pk).update(data=data)


class Migration(migrations.Migration):
    dependencies = [
        ("integrations", "0006_connection_failure_kind"),
        ("audit", "0003_event_json_text_required"),
        ("events", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(failures_reworded, migrations.RunPython.noop),
    ]
