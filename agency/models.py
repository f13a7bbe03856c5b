"""Plans, blueprints, connect links and the integration connections they make."""

import hashlib
import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone


def link_digest(secret: str) -> str:
    """The tagged digest under which a connect link's secret is stored."""
    return "sha256$" + hashlib.sha256(secret.encode("utf-8")).hexdigest()


class Blueprint(models.Model):
    """A saved workspace shape (a plan body without a workspace), under a key."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    agency = models.ForeignKey(
        "workspaces.Agency", on_delete=models.CASCADE, related_name="blueprints"
    )
    key = models.CharField(max_length=64)
    name = models.CharField(max_length=200)
    body = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["agency", "key"], name="blueprint_agency_key"),
        ]
        ordering = ["key"]

    def __str__(self):
        return f"{self.key} ({self.name})"

    # The parts of the body, as the blueprint's answer shows them.
    @property
    def settings(self) -> dict:
        return (self.body or {}).get("settings", {})

    @property
    def team(self) -> list:
        return (self.body or {}).get("team", [])

    @property
    def programmes(self) -> list:
        return (self.body or {}).get("programmes", [])

    @property
    def integrations(self) -> list:
        return (self.body or {}).get("integrations", [])


class Plan(models.Model):
    class State(models.TextChoices):
        DRAFTED = "drafted"
        WAITING_FOR_APPROVAL = "waiting_for_approval"
        APPROVED = "approved"
        REFUSED = "refused"
        APPLIED = "applied"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    agency = models.ForeignKey("workspaces.Agency", on_delete=models.CASCADE, related_name="plans")
    state = models.CharField(max_length=30, choices=State.choices, default=State.DRAFTED)
    blueprint_key = models.CharField(max_length=64, blank=True)
    # The plan as asked for, blueprint merged in: workspace, settings, team, programmes, integrations.
    body = models.JSONField(default=dict)
    # The changes as checked when drafted, then as made when applied. Never a secret.
    result = models.JSONField(default=dict)
    # The workspace the plan changed or created, once applied.
    workspace = models.ForeignKey(
        "workspaces.Workspace", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_by = models.CharField(max_length=200, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True)
    applied_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    # What the worker's apply made that is shown once (new members' session tokens, the
    # connect links' URLs), encrypted, kept for the person who approved the plan only until
    # the console shows it to them; then emptied.
    revealed_encrypted = models.BinaryField(null=True, blank=True, editable=False)

    class Meta:
        indexes = [models.Index(fields=["agency", "state"], name="plan_agency_state")]
        ordering = ["-created_at"]

    def __str__(self):
        return f"plan {self.pk} ({self.state})"

    @property
    def refused_reason(self) -> str | None:
        """Why a person declined the plan; None unless it was declined."""
        return self.decision_reason if self.state == self.State.REFUSED else None


class ConnectLink(models.Model):
    """A link that lets a client connect offered integrations to one workspace.

    The link's secret is stored only as a SHA-256 digest; its URL is shown once.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    agency = models.ForeignKey(
        "workspaces.Agency", on_delete=models.CASCADE, related_name="connect_links"
    )
    workspace = models.ForeignKey(
        "workspaces.Workspace", on_delete=models.CASCADE, related_name="connect_links"
    )
    digest = models.CharField(max_length=80, unique=True)
    integrations = models.JSONField(default=list)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    plan = models.ForeignKey(
        Plan, null=True, blank=True, on_delete=models.SET_NULL, related_name="connect_links"
    )
    created_by = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    # The connections made through the link (one per offered integration at most).
    connections = models.ManyToManyField(
        "integrations.Connection", blank=True, related_name="connect_links"
    )

    class Meta:
        indexes = [models.Index(fields=["agency", "created_at"], name="link_agency_created")]
        ordering = ["-created_at"]

    def __str__(self):
        return f"connect link {self.pk}"
