"""The writers of the notifications' tables: a workspace's settings (owners and admins),
a member's choices (the member, or the unsubscribe link made for them), and the claim of
each message. Every change to settings or choices is audited in its own transaction."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from audit.services import Actor, audit_record
from core.crypto import decrypt_text, encrypt_text
from workspaces.models import Member, Workspace
from workspaces.services import RecordInvalid

from .models import NEVER_READ, Kind, NotificationSettings, OptOut, Sent

# Who changes a workspace's notification settings.
SETTINGS_ROLES = Member.ADMIN_ROLES
HOURS = range(0, 24)
SPEED_TO_LEAD_MINUTES = (1, 1440)
# The fields of the settings, as the Notifications page names them.
FIELDS = (
    "digest_hour",
    "daily_digest",
    "weekly_digest",
    "speed_to_lead_minutes",
    "eod_reminder_hour",
)
# Which kinds each role receives (by default; a member may opt out of any).
DIGEST_ROLES = Member.WORKSPACE_WIDE_ROLES


class SettingsRefused(Exception):
    def __init__(self, role: str):
        self.message = f"A {role} cannot change the notifications; owners and admins change them."
        super().__init__(self.message)


def settings_ensure(workspace: Workspace) -> NotificationSettings:
    """The workspace's settings, made with the defaults when it has none yet."""
    found, _ = NotificationSettings.objects.get_or_create(workspace=workspace)
    return found


def _values_check(values: dict) -> None:
    hour = values["digest_hour"]
    if not isinstance(hour, int) or hour not in HOURS:
        raise RecordInvalid("digest_hour", "Pick an hour from 0 to 23.")
    eod = values["eod_reminder_hour"]
    if eod is not None and (not isinstance(eod, int) or eod not in HOURS):
        raise RecordInvalid("eod_reminder_hour", "Pick an hour from 0 to 23, or leave it empty.")
    minutes = values["speed_to_lead_minutes"]
    low, high = SPEED_TO_LEAD_MINUTES
    if minutes is not None and (not isinstance(minutes, int) or not low <= minutes <= high):
        raise RecordInvalid(
            "speed_to_lead_minutes",
            f"Write a number of minutes from {low} to {high}, or leave it empty for no alerts.",
        )
    for name in ("daily_digest", "weekly_digest"):
        if not isinstance(values[name], bool):
            raise RecordInvalid(name, "Say yes or no.")


def settings_update(
    *,
    workspace: Workspace,
    values: dict,
    slack_url: str | None = None,
    slack_remove: bool = False,
    actor: Actor,
    by_role: str,
) -> NotificationSettings:
    """Save the settings (every name of FIELDS in `values`) and, when given, a Slack address
    already checked and tested (slack.slack_url_check, slack.slack_test), or its removal;
    audited without the address. The next round works the next due instant out again."""
    if by_role not in SETTINGS_ROLES:
        raise SettingsRefused(by_role)
    _values_check(values)
    with transaction.atomic():
        row = settings_ensure(workspace)
        row = NotificationSettings.objects.select_for_update().get(pk=row.pk)
        changed = [name for name in FIELDS if getattr(row, name) != values[name]]
        for name in FIELDS:
            setattr(row, name, values[name])
        slack = None
        if slack_url:
            row.slack_webhook_encrypted = encrypt_text(slack_url)
            slack = "connected"
        elif slack_remove and row.slack_webhook_encrypted:
            row.slack_webhook_encrypted = None
            slack = "removed"
        row.next_due_at = NEVER_READ
        row.save()
        audit_record(
            actor=actor,
            action="notifications.updated",
            target_type="workspace",
            target_id=str(workspace.pk),
            workspace=workspace,
            detail={"changed": changed, **({"slack": slack} if slack else {})},
        )
    return row


def slack_url_of(row: NotificationSettings) -> str | None:
    return decrypt_text(bytes(row.slack_webhook_encrypted)) if row.has_slack else None


def kinds_received(member: Member) -> set[str]:
    opted_out = set(OptOut.objects.filter(member=member).values_list("kind", flat=True))
    return set(Kind.values) - opted_out


def choices_set(*, member: Member, received: set[str], actor: Actor) -> set[str]:
    """The kinds the member receives from now on; the others are opted out of. Audited."""
    unknown = set(received) - set(Kind.values)
    if unknown:
        raise RecordInvalid("kinds", f"Unknown kinds: {', '.join(sorted(unknown))}.")
    with transaction.atomic():
        held = set(OptOut.objects.filter(member=member).values_list("kind", flat=True))
        wanted_out = set(Kind.values) - set(received)
        OptOut.objects.filter(member=member, kind__in=held - wanted_out).delete()
        OptOut.objects.bulk_create([OptOut(member=member, kind=k) for k in wanted_out - held])
        if held != wanted_out:
            audit_record(
                actor=actor,
                action="notifications.choices_changed",
                target_type="member",
                target_id=str(member.pk),
                workspace=member.workspace,
                detail={"opted_out": sorted(wanted_out)},
            )
    return set(received)


def opt_out(*, member: Member, kind: str, actor: Actor) -> bool:
    """The member no longer receives `kind` (an unsubscribe link); False when they had
    already opted out."""
    with transaction.atomic():
        _, made = OptOut.objects.get_or_create(member=member, kind=kind)
        if made:
            audit_record(
                actor=actor,
                action="notifications.unsubscribed",
                target_type="member",
                target_id=str(member.pk),
                workspace=member.workspace,
                detail={"kind": kind},
            )
    return made


def claim(*, workspace: Workspace, kind: str, recipient: str, period: str, now) -> bool:
    """Claim one message before it is sent: True for the first claim of (kind, workspace,
    recipient, period), False for any after it (another round, a retry, a restart)."""
    try:
        with transaction.atomic():
            Sent.objects.create(
                workspace=workspace, kind=kind, recipient=recipient, period=period, claimed_at=now
            )
    except IntegrityError:
        return False
    return True


def due_take(*, now, hold_until, limit: int) -> list:
    """The workspaces whose next due instant has come by `now` (oldest first, at most
    `limit`), as (id, that instant), each held until `hold_until` so a second round does not take it too; rows
    another round is taking are skipped, not waited for."""
    with transaction.atomic():
        taken = list(
            NotificationSettings.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(next_due_at__lte=now, workspace__archived_at__isnull=True)
            .order_by("next_due_at")
            .values_list("pk", "next_due_at")[:limit]
        )
        if taken:
            NotificationSettings.objects.filter(pk__in=[pk for pk, _ in taken]).update(
                next_due_at=hold_until
            )
    return taken


def due_set(row: NotificationSettings, at) -> None:
    """The instant the workspace's next digest or reminder may fall due."""
    NotificationSettings.objects.filter(pk=row.pk).update(next_due_at=at)
