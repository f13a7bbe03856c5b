"""Connections to providers and the events they send.

A connection joins one workspace to one provider account. Every event a provider
sends (a signed webhook delivery, or an item read by the backfill) is stored as
received, once per provider event id, then applied by the worker through the
records' writers. An event that cannot be placed is held with why.
"""

import uuid

from django.db import models
from django.utils import timezone


class Connection(models.Model):
    class State(models.TextChoices):
        CONNECTED = "connected"
        FAILING = "failing"
        DISCONNECTED = "disconnected"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    workspace = models.ForeignKey(
        "workspaces.Workspace", on_delete=models.CASCADE, related_name="connections"
    )
    # The provider's key (integrations.providers.PROVIDERS).
    provider = models.CharField(max_length=20)
    state = models.CharField(max_length=20, choices=State.choices, default=State.CONNECTED)
    # Fernet-encrypted JSON of the credential's fields; never returned by any route.
    credentials_encrypted = models.BinaryField()
    # Fernet-encrypted secret that signs the provider's webhooks (given or generated).
    signing_secret_encrypted = models.BinaryField(null=True, blank=True)
    # Who made it: "connect link <id>" or the member's email.
    created_by = models.CharField(max_length=200, blank=True)
    connected_at = models.DateTimeField(default=timezone.now)
    disconnected_at = models.DateTimeField(null=True, blank=True)
    # Counters, moved with F() expressions.
    events_received = models.PositiveIntegerField(default=0)
    events_applied = models.PositiveIntegerField(default=0)
    events_held = models.PositiveIntegerField(default=0)
    events_refused = models.PositiveIntegerField(default=0)
    last_event_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    last_error_at = models.DateTimeField(null=True, blank=True)
    # The kind of the last failure (integrations.base: refused, unreachable, limited,
    # unexpected), from the error's type: what the pages say and whether the beat retries.
    last_error_kind = models.CharField(max_length=20, blank=True)
    # A sentence of ours a page shows as it is, when the kind alone does not say why.
    last_error_words = models.CharField(max_length=500, blank=True)
    # Where the backfill stands (a cursor per resource), so a restarted worker resumes.
    backfill = models.JSONField(default=dict, blank=True)
    backfill_started_at = models.DateTimeField(null=True, blank=True)
    backfill_finished_at = models.DateTimeField(null=True, blank=True)
    # Provider settings an owner may change (for example HubSpot's UTM property names).
    options = models.JSONField(default=dict, blank=True)

    class Meta:
        indexes = [models.Index(fields=["workspace", "provider"], name="connection_ws_provider")]
        # One connection per provider per workspace: connecting the provider again replaces
        # its credentials (integrations.connections.connection_create). Disconnected ones
        # stay, refused, with the events they brought.
        constraints = [
            models.UniqueConstraint(
                fields=["workspace", "provider"],
                condition=~models.Q(state="disconnected"),
                name="connection_one_per_provider",
            )
        ]
        ordering = ["provider", "-connected_at"]

    def __str__(self):
        return f"{self.provider} on {self.workspace_id} ({self.state})"


class Event(models.Model):
    """One provider event as received, and what became of it."""

    class Source(models.TextChoices):
        WEBHOOK = "webhook"
        BACKFILL = "backfill"

    class State(models.TextChoices):
        RECEIVED = "received"
        APPLIED = "applied"
        # Cannot be placed yet (no lead or sale, another currency, the record it needs
        # has not arrived): listed with why, applied again when it may be placed.
        HELD = "held"
        # A type the service does not map: stored and not applied.
        IGNORED = "ignored"
        DISMISSED = "dismissed"

    class HoldCode(models.TextChoices):
        """Why an event is held. WAITING for the record it needs (released when that
        record arrives); the others wait for a person to assign or dismiss it."""

        WAITING = "waiting"
        NO_LEAD = "no_lead"
        NO_SALE = "no_sale"
        CURRENCY = "currency"
        INVALID = "invalid"

    # The codes a person resolves (assign or dismiss), not a record's arrival.
    PLACEMENT_CODES = frozenset({HoldCode.NO_LEAD, HoldCode.NO_SALE, HoldCode.CURRENCY})

    id = models.BigAutoField(primary_key=True)
    connection = models.ForeignKey(Connection, on_delete=models.CASCADE, related_name="events")
    workspace = models.ForeignKey(
        "workspaces.Workspace", on_delete=models.CASCADE, related_name="integration_events"
    )
    provider = models.CharField(max_length=20)
    # The provider's event id (Stripe's evt_…; Calendly: event name, uri and created_at).
    event_id = models.CharField(max_length=500)
    event_type = models.CharField(max_length=100)
    # The provider's id of the object the event is about (Stripe's ch_…, re_…, dp_…).
    object_id = models.CharField(max_length=200, blank=True)
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.WEBHOOK)
    payload = models.JSONField()
    received_at = models.DateTimeField(default=timezone.now)
    # When the event happened at the provider (a charge's created time, say).
    occurred_at = models.DateTimeField(null=True, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.RECEIVED)
    applied_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    # Why it is held: a code (no_lead, no_sale, currency, waiting) and a sentence.
    hold_code = models.CharField(max_length=30, blank=True, choices=HoldCode.choices)
    hold_reason = models.TextField(blank=True)
    # For a `waiting` hold: the provider id of the record it waits for.
    waits_for = models.CharField(max_length=200, blank=True)
    # The sale a person placed a held payment on (the event is applied to it).
    assigned_sale = models.ForeignKey(
        "workspaces.Sale", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["connection", "event_id"], name="integration_event_once"
            ),
        ]
        indexes = [
            models.Index(fields=["connection", "state"], name="integration_event_state"),
            models.Index(
                fields=["workspace", "provider", "occurred_at"],
                name="integration_event_held",
                condition=models.Q(state="held"),
            ),
            models.Index(fields=["connection", "object_id"], name="integration_event_object"),
            models.Index(
                fields=["connection", "waits_for"],
                name="integration_event_waiting",
                condition=models.Q(state="held", hold_code="waiting"),
            ),
        ]
        ordering = ["-received_at"]

    def __str__(self):
        return f"{self.provider} {self.event_type} {self.event_id} ({self.state})"
