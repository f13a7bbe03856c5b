"""What the agent API keeps of its own: change-log entries, drafts and filed forms.

The sales records a form creates (calls, outcomes, sales, EOD reports) live in
workspaces/; these tables only hold what the API itself needs to answer again.
"""

import uuid

from django.db import models


class ChangeLogEntry(models.Model):
    """A dated note of what changed in how a workspace sells (a price, an offer, ...)."""

    class Kind(models.TextChoices):
        PRICE = "price"
        OFFER = "offer"
        SCRIPT = "script"
        RULE = "rule"
        OTHER = "other"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    workspace = models.ForeignKey(
        "workspaces.Workspace", on_delete=models.CASCADE, related_name="change_log"
    )
    effective_at = models.DateTimeField()
    kind = models.CharField(max_length=20, choices=Kind.choices)
    title = models.CharField(max_length=200)
    what = models.TextField(blank=True)
    why = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Who wrote it (a token, an agency token or a member), as the audit trail names them.
    created_by_kind = models.CharField(max_length=40)
    created_by_id = models.CharField(max_length=64, blank=True)
    created_by_label = models.CharField(max_length=200, blank=True)

    class Meta:
        indexes = [models.Index(fields=["workspace", "effective_at"], name="changelog_ws_eff")]

    def __str__(self):
        return self.title


class Draft(models.Model):
    """A form proposed for a member to check and file; never carries money."""

    class Form(models.TextChoices):
        POST_CALL = "post-call"
        PAST_CALL = "past-call"
        DM_CLOSE = "dm-close"
        EOD = "eod"

    class Status(models.TextChoices):
        OPEN = "open"
        FILED = "filed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    workspace = models.ForeignKey(
        "workspaces.Workspace", on_delete=models.CASCADE, related_name="drafts"
    )
    member = models.ForeignKey("workspaces.Member", on_delete=models.CASCADE, related_name="drafts")
    form = models.CharField(max_length=20, choices=Form.choices)
    fields = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by_kind = models.CharField(max_length=40)
    created_by_id = models.CharField(max_length=64, blank=True)
    created_by_label = models.CharField(max_length=200, blank=True)
    filed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(
                fields=["workspace", "member", "created_at"],
                name="draft_ws_open",
                condition=models.Q(status="open"),
            )
        ]

    def __str__(self):
        return f"{self.form} draft for {self.member_id}"


class FormSubmission(models.Model):
    """A filed form and the answer it gave, so a second filing answers the same.

    submission_id is chosen by the caller and identifies the filing across retries,
    independently of the Idempotency-Key.
    """

    id = models.BigAutoField(primary_key=True)
    workspace = models.ForeignKey(
        "workspaces.Workspace", on_delete=models.CASCADE, related_name="form_submissions"
    )
    member = models.ForeignKey(
        "workspaces.Member", on_delete=models.CASCADE, related_name="form_submissions"
    )
    form = models.CharField(max_length=20, choices=Draft.Form.choices)
    submission_id = models.UUIDField()
    status_code = models.PositiveSmallIntegerField()
    response = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["workspace", "submission_id"], name="form_submission_unique"
            )
        ]

    def __str__(self):
        return f"{self.form} {self.submission_id}"
