"""Integrators' webhook endpoints, the deliveries of events to them, and each attempt."""

import uuid

from django.db import models
from django.db.models import Q
from django.utils import timezone


class WebhookEndpoint(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    workspace = models.ForeignKey(
        "workspaces.Workspace", on_delete=models.CASCADE, related_name="webhook_endpoints"
    )
    url = models.CharField(max_length=2000)
    # The event types it wants; empty: every type.
    event_types = models.JSONField(default=list, blank=True)
    description = models.CharField(max_length=200, blank=True)
    enabled = models.BooleanField(default=True)
    # `whsec_…`, encrypted with the service's field keys (core.crypto).
    secret_encrypted = models.BinaryField()
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    # Set at the first failed attempt after a success; cleared by the next success. Three
    # days of failures disable the endpoint.
    failing_since = models.DateTimeField(null=True, blank=True)
    disabled_reason = models.CharField(max_length=200, blank=True)
    # The circuit breaker (webhooks.services, docs/events.md): the run of timeouts and 5xx
    # answers since the last other outcome (and how many of them timed out); while
    # `paused_until` is ahead nothing is attempted, and `pauses` (the pauses since the last
    # success) makes each cool-off longer. One success clears them all.
    breaker_failures = models.PositiveIntegerField(default=0)
    breaker_timeouts = models.PositiveIntegerField(default=0)
    paused_until = models.DateTimeField(null=True, blank=True)
    pauses = models.PositiveIntegerField(default=0)
    paused_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        indexes = [models.Index(fields=["workspace", "created_at"], name="endpoint_ws_created")]

    def __str__(self):
        return self.url

    def wants(self, type: str) -> bool:
        return not self.event_types or type in self.event_types


class Delivery(models.Model):
    """One event to one endpoint: attempted until it succeeds or the schedule runs out."""

    class State(models.TextChoices):
        PENDING = "pending"
        SUCCEEDED = "succeeded"
        FAILED = "failed"

    id = models.BigAutoField(primary_key=True)
    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="deliveries")
    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries"
    )
    state = models.CharField(max_length=20, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    # When the next attempt is due (pending only).
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    # An attempt under way holds the delivery until then; a worker that dies mid-attempt
    # leaves it to expire, and the beat gives the delivery to another.
    leased_until = models.DateTimeField(null=True, blank=True)
    # Put off because its endpoint or workspace had every slot taken: the next attempt of
    # that endpoint (or workspace) to end sends it (the sweep, past next_attempt_at, if
    # none does).
    waiting_slot = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_status = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "endpoint"], name="delivery_event_endpoint")
        ]
        indexes = [
            models.Index(
                fields=["next_attempt_at"],
                condition=Q(state="pending"),
                name="delivery_pending_due",
            ),
            models.Index(fields=["endpoint", "-created_at"], name="delivery_endpoint_recent"),
            models.Index(
                fields=["endpoint", "id"],
                condition=Q(waiting_slot=True),
                name="delivery_waiting_slot",
            ),
        ]


class DeliveryAttempt(models.Model):
    id = models.BigAutoField(primary_key=True)
    delivery = models.ForeignKey(Delivery, on_delete=models.CASCADE, related_name="attempt_log")
    # Denormalised for the page's filters and the 30 days' pruning.
    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="attempt_log"
    )
    started_at = models.DateTimeField()
    duration_ms = models.PositiveIntegerField()
    succeeded = models.BooleanField()
    # The receiver's HTTP status; null when none came (timeout, refused, bad address).
    status_code = models.PositiveIntegerField(null=True, blank=True)
    # The first 1 KB of the answer, or what went wrong before one.
    response_excerpt = models.TextField(blank=True)
    error = models.CharField(max_length=300, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["endpoint", "-started_at"], name="attempt_endpoint_recent"),
            models.Index(fields=["started_at"], name="attempt_started_at"),
        ]
