import uuid

from django.db import models
from django.utils import timezone


class AuditEvent(models.Model):
    """One write, recorded in the same transaction as the write itself."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    workspace = models.ForeignKey(
        "workspaces.Workspace", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    agency = models.ForeignKey(
        "workspaces.Agency", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now, editable=False)
    actor_kind = models.CharField(max_length=40)
    actor_id = models.CharField(max_length=64, blank=True)
    actor_label = models.CharField(max_length=200, blank=True)
    action = models.CharField(max_length=80)
    target_type = models.CharField(max_length=80)
    target_id = models.CharField(max_length=64, blank=True)
    reason = models.TextField(blank=True)
    detail = models.JSONField(default=dict, blank=True)
    # The event as the answers show it (audit.rendering.event_json), written once with the
    # row by audit.services: events are never changed.
    json_text = models.TextField(editable=False)

    class Meta:
        indexes = [
            models.Index(fields=["workspace", "at"], name="audit_ws_at"),
            models.Index(fields=["agency", "at"], name="audit_agency_at"),
        ]
        constraints = [
            models.CheckConstraint(condition=~models.Q(json_text=""), name="audit_event_has_text")
        ]

    def __str__(self):
        return f"{self.action} {self.target_type}:{self.target_id}"
