"""What the service tells a team without being asked: each workspace's notification
settings (with the instant its next message may fall due), each member's choices, and the
claim of every message sent, one per (kind, workspace, recipient, period)."""

from datetime import UTC, datetime

from django.db import models

from workspaces.models import Member, Workspace

# A settings row never read yet is due at once: its first round works out the next instant.
NEVER_READ = datetime(2000, 1, 1, tzinfo=UTC)


class Kind(models.TextChoices):
    DAILY_DIGEST = "daily_digest", "Daily digest"
    WEEKLY_DIGEST = "weekly_digest", "Weekly digest"
    SPEED_TO_LEAD = "speed_to_lead", "Speed-to-lead alerts"
    EOD_REMINDER = "eod_reminder", "EOD report reminders"


class NotificationSettings(models.Model):
    workspace = models.OneToOneField(
        Workspace, primary_key=True, on_delete=models.CASCADE, related_name="notification_settings"
    )
    # The local hour (0 to 23) of the daily digest, and of the weekly one on Mondays.
    digest_hour = models.PositiveSmallIntegerField(default=8)
    daily_digest = models.BooleanField(default=True)
    weekly_digest = models.BooleanField(default=True)
    # Minutes a lead may wait for its first contact before its setter is told; None: off.
    speed_to_lead_minutes = models.PositiveIntegerField(null=True, blank=True, default=15)
    # The local hour of the EOD reminder; None: off.
    eod_reminder_hour = models.PositiveSmallIntegerField(null=True, blank=True)
    # Fernet-encrypted Slack incoming-webhook address; never shown again once saved.
    slack_webhook_encrypted = models.BinaryField(null=True, blank=True)
    # The next instant at which a digest or reminder may fall due: the round reads only the
    # rows whose instant has come (an indexed range), never every workspace.
    next_due_at = models.DateTimeField(default=NEVER_READ)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["next_due_at"], name="notify_next_due")]

    @property
    def has_slack(self) -> bool:
        return bool(self.slack_webhook_encrypted)


class OptOut(models.Model):
    """A kind of message a member chose not to receive (by default they receive all)."""

    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32, choices=Kind.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["member", "kind"], name="notify_opt_out_unique")
        ]


class Sent(models.Model):
    """The claim of one message, made before it is sent: a second round, a retry or a
    restart finds it and sends nothing. The recipient is a member's id or `slack`; the
    period is the local day (`2026-03-09`), the week's Monday (`week 2026-03-02`) or, for
    an alert, the lead's id."""

    SLACK = "slack"

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32, choices=Kind.choices)
    recipient = models.CharField(max_length=64)
    period = models.CharField(max_length=64)
    claimed_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["workspace", "kind", "period", "recipient"], name="notify_sent_once"
            )
        ]
