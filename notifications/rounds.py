"""The notifications round: what is due, claimed once, then sent.

The beat runs the round every minute (tasks.notifications_round). It reads only the
workspaces whose next due instant has come (NotificationSettings.next_due_at, indexed),
holds them for a few minutes so a second beat does not take them too, and queues one task
per workspace on the mail queue (tasks.workspace_notify): a workspace's digests never wait
behind another's. That task works out, in the workspace's own zone, what fell due by the
round's instant (the digest at `digest_hour`, the weekly one on Mondays, the EOD reminder at
`eod_reminder_hour`), claims each message (services.claim: once per kind, workspace,
recipient and period) and sends it, then sets the next due instant. A message due more than
six hours before the round's instant is skipped and the log says so. The speed-to-lead
alerts are found by one indexed query over the leads not yet contacted, each alert claimed
once per lead.
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import UTC, date, datetime, time, timedelta

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.urls import reverse

from core.mail import mail_send
from core.tasks import task_send
from core.times import local_today, workspace_zone
from workspaces import contact
from workspaces.models import EodReport, Lead, Member

from . import digests
from .models import NEVER_READ, Kind, NotificationSettings, OptOut, Sent
from .services import SPEED_TO_LEAD_MINUTES, claim, due_set, due_take

SPEED_TO_LEAD_MIN, SPEED_TO_LEAD_MAX = SPEED_TO_LEAD_MINUTES

logger = logging.getLogger(__name__)

LATE_MAX = timedelta(hours=6)
# How long a due workspace is held for its task once the round queued it: a task lost with
# its broker is queued again after that, its claims keeping anything from going twice.
HELD = timedelta(minutes=10)
# The most workspaces a round queues; the rest wait for the next minute.
ROUND_MAX = 2000
UNSUBSCRIBE_SALT = "notifications.unsubscribe"
# An alert is claimed once per lead, whoever it tells.
ALERT_RECIPIENT = "lead"


def local_instant(day: date, hour: int, zone) -> datetime:
    """The instant of `hour`:00 on the local day (an hour the clocks skip is read with
    the offset before the change, so it falls an hour later on the wall clock)."""
    return datetime.combine(day, time(hour), tzinfo=zone).astimezone(UTC)


def latest_instant(now: datetime, hour: int, workspace) -> tuple[date, datetime]:
    """The last local day whose `hour`:00 has come by `now`, and that instant."""
    zone = workspace_zone(workspace)
    day = local_today(workspace, now)
    at = local_instant(day, hour, zone)
    if at > now:
        day -= timedelta(days=1)
        at = local_instant(day, hour, zone)
    return day, at


def next_instant(now: datetime, hour: int, workspace) -> datetime:
    zone = workspace_zone(workspace)
    day = local_today(workspace, now)
    at = local_instant(day, hour, zone)
    return at if at > now else local_instant(day + timedelta(days=1), hour, zone)


def next_due(row: NotificationSettings, now: datetime) -> datetime:
    hours = []
    if row.daily_digest or row.weekly_digest:
        hours.append(row.digest_hour)
    if row.eod_reminder_hour is not None:
        hours.append(row.eod_reminder_hour)
    if not hours:
        return now + timedelta(days=1)
    return min(next_instant(now, hour, row.workspace) for hour in hours)


def unsubscribe_url(member: Member, kind: str) -> str:
    token = signing.dumps({"m": str(member.pk), "k": kind}, salt=UNSUBSCRIBE_SALT)
    return f"{settings.BASE_URL}{reverse('notifications-unsubscribe', args=[token])}"


def unsubscribe_read(token: str) -> tuple[str, str] | None:
    """The member id and kind a link was made for; None for a link not made here."""
    try:
        body = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(body, dict) or body.get("k") not in Kind.values:
        return None
    return body.get("m"), body["k"]


def _recipients(workspace, kind: str, roles) -> list[Member]:
    opted_out = OptOut.objects.filter(member=OuterRef("pk"), kind=kind)
    return list(
        Member.objects.filter(workspace=workspace, is_active=True, role__in=roles)
        .exclude(email="")
        .exclude(Exists(opted_out))
        .order_by("name", "pk")
    )


def _mail(member: Member, kind: str, template: str, context: dict) -> None:
    link = unsubscribe_url(member, kind)
    mail_send(
        to=[member.email],
        template=template,
        context={**context, "member": member, "unsubscribe_url": link},
        headers={
            "List-Unsubscribe": f"<{link}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )


def _digests(row: NotificationSettings, span: digests.Span, now: datetime) -> int:
    """The span's digests of the workspace: to each owner, admin and manager and to Slack;
    each closer's, setter's and SDR's own."""
    workspace, kind, period = row.workspace, span.kind, span.first.isoformat()
    sent = 0
    digest = None
    for member in _recipients(workspace, kind, Member.WORKSPACE_WIDE_ROLES):
        with transaction.atomic():
            if not claim(
                workspace=workspace, kind=kind, recipient=str(member.pk), period=period, now=now
            ):
                continue
            digest = digest or digests.workspace_digest(workspace=workspace, span=span, now=now)
            _mail(member, kind, "digest", {"digest": digest})
            sent += 1
    if row.has_slack:
        with transaction.atomic():
            if claim(workspace=workspace, kind=kind, recipient=Sent.SLACK, period=period, now=now):
                digest = digest or digests.workspace_digest(workspace=workspace, span=span, now=now)
                payload = digests.slack_blocks(digest)
                transaction.on_commit(
                    lambda: task_send(
                        "notifications.slack_deliver", args=[str(workspace.pk), payload]
                    )
                )
                sent += 1
    for member in _recipients(workspace, kind, Member.REPORTING_ROLES):
        with transaction.atomic():
            if not claim(
                workspace=workspace, kind=kind, recipient=str(member.pk), period=period, now=now
            ):
                continue
            own = digests.member_digest(workspace=workspace, member=member, span=span, now=now)
            _mail(member, kind, "digest", {"digest": own})
            sent += 1
    return sent


def _eod_reminders(row: NotificationSettings, day: date, now: datetime) -> int:
    workspace = row.workspace
    if day.weekday() not in {int(d) for d in (workspace.working_days or [])}:
        return 0
    filed = EodReport.objects.filter(workspace=workspace, member=OuterRef("pk"), date=day)
    members = [
        m
        for m in _recipients(workspace, Kind.EOD_REMINDER, Member.REPORTING_ROLES)
        if not m.joined_at or m.joined_at <= day
    ]
    pending = set(
        Member.objects.filter(pk__in=[m.pk for m in members])
        .exclude(Exists(filed))
        .values_list("pk", flat=True)
    )
    sent = 0
    for member in members:
        if member.pk not in pending:
            continue
        with transaction.atomic():
            if claim(
                workspace=workspace,
                kind=Kind.EOD_REMINDER,
                recipient=str(member.pk),
                period=day.isoformat(),
                now=now,
            ):
                context = {
                    "workspace": workspace,
                    "day": day,
                    "file_url": digests.app_url("file-form", workspace.pk, "eod"),
                }
                _mail(member, Kind.EOD_REMINDER, "eod_reminder", context)
                sent += 1
    return sent


def _due(row, now: datetime, hour: int, kind_claimed, awaited: datetime) -> date | None:
    """The local day whose `hour` is due at `now`, or None: at most LATE_MAX late (later,
    skipped, and said so when the workspace was awaiting it: its next due instant, as the
    round found it, had come by then)."""
    day, at = latest_instant(now, hour, row.workspace)
    if now - at > LATE_MAX:
        if awaited != NEVER_READ and awaited <= at and not kind_claimed(day):
            logger.warning(
                "notifications of workspace %s due at %s skipped: %s late (more than %s)",
                row.workspace_id,
                at.isoformat(),
                now - at,
                LATE_MAX,
            )
        return None
    return day


def workspace_notify(row: NotificationSettings, now: datetime, awaited: datetime) -> Counter:
    """Everything due for one workspace by `now`; sets its next due instant. `awaited` is
    the next due instant the round found (NEVER_READ: settings never read since made or
    changed, so nothing was awaited and nothing is said to be skipped)."""
    sent = Counter()
    workspace = row.workspace

    def claimed(kind):
        return lambda day: Sent.objects.filter(
            workspace=workspace, kind=kind, period=day.isoformat()
        ).exists()

    if row.daily_digest or row.weekly_digest:
        day = _due(row, now, row.digest_hour, claimed(Kind.DAILY_DIGEST), awaited)
        if day is not None and row.daily_digest:
            sent[Kind.DAILY_DIGEST] += _digests(row, digests.Span.daily(day), now)
        if day is not None and row.weekly_digest and day.weekday() == 0:
            sent[Kind.WEEKLY_DIGEST] += _digests(row, digests.Span.weekly(day), now)
    if row.eod_reminder_hour is not None:
        day = _due(row, now, row.eod_reminder_hour, claimed(Kind.EOD_REMINDER), awaited)
        if day is not None:
            sent[Kind.EOD_REMINDER] += _eod_reminders(row, day, now)
    due_set(row, next_due(row, now))
    return sent


def speed_to_lead_alerts(now: datetime) -> int:
    """Each lead still waiting for its first contact `speed_to_lead_minutes` after its
    creation (at most LATE_MAX later): its setter is told, else the workspace's managers,
    once per lead."""
    longest = timedelta(minutes=SPEED_TO_LEAD_MAX) + LATE_MAX
    # The leads not yet contacted, created in the window any threshold can reach (the
    # partial index lead_uncontacted_created), of the workspaces whose alerts are on.
    leads = list(
        Lead.objects.filter(
            contact.never_contacted(),
            created_at__gte=now - longest,
            created_at__lte=now - timedelta(minutes=SPEED_TO_LEAD_MIN),
            workspace__notification_settings__speed_to_lead_minutes__isnull=False,
            workspace__archived_at__isnull=True,
        ).values_list(
            "pk",
            "created_at",
            "workspace__notification_settings__speed_to_lead_minutes",
        )
    )
    due = [
        pk
        for pk, created_at, minutes in leads
        if timedelta(0) <= now - (created_at + timedelta(minutes=minutes)) <= LATE_MAX
    ]
    told = set(
        Sent.objects.filter(
            kind=Kind.SPEED_TO_LEAD, recipient=ALERT_RECIPIENT, period__in=[str(pk) for pk in due]
        ).values_list("period", flat=True)
    )
    return sum(_alert(pk, now) for pk in due if str(pk) not in told)


def _alert(lead_id, now) -> int:
    """Tell the lead's setter (else the managers) that it is still waiting; claimed once
    per lead, whoever is told."""
    lead = Lead.objects.select_related("workspace", "setter").get(pk=lead_id)
    workspace = lead.workspace
    setter = lead.setter if lead.setter and lead.setter.is_active else None
    if setter is not None:
        told = [
            m
            for m in _recipients(workspace, Kind.SPEED_TO_LEAD, [setter.role])
            if m.pk == setter.pk
        ]
    else:
        told = _recipients(workspace, Kind.SPEED_TO_LEAD, [Member.Role.MANAGER])
    with transaction.atomic():
        if not claim(
            workspace=workspace,
            kind=Kind.SPEED_TO_LEAD,
            recipient=ALERT_RECIPIENT,
            period=str(lead.pk),
            now=now,
        ):
            return 0
        context = {
            "workspace": workspace,
            "lead": lead,
            "lead_name": lead.name or lead.email or "A lead without a name",
            "minutes": int((now - lead.created_at).total_seconds() // 60),
            "lead_url": digests.app_url("dashboard-lead", lead.pk),
        }
        for member in told:
            _mail(member, Kind.SPEED_TO_LEAD, "speed_to_lead", context)
    return 1


def round_due(now: datetime) -> list:
    """The workspaces due by `now`, each with the instant it was due at, held for HELD so
    another beat's round skips them."""
    return due_take(now=now, hold_until=now + HELD, limit=ROUND_MAX)


def round_run(*, now: datetime, every: bool = False, inline: bool = False) -> dict:
    """One round as of `now`: the due workspaces (every workspace, for an operator's round
    as of a given instant) and the speed-to-lead alerts. `inline` works each workspace
    here instead of queueing its task."""
    if every:
        due = list(
            NotificationSettings.objects.filter(workspace__archived_at__isnull=True)
            .order_by("pk")
            .values_list("pk", "next_due_at")
        )
    else:
        due = round_due(now)
    sent = Counter()
    for workspace_id, awaited in due:
        if inline:
            sent += workspace_notify_of(workspace_id, now, awaited)
        else:
            task_send(
                "notifications.workspace_notify",
                args=[str(workspace_id), now.isoformat(), awaited.isoformat()],
            )
    sent[Kind.SPEED_TO_LEAD] += speed_to_lead_alerts(now)
    return {"workspaces": len(due), "sent": {kind: n for kind, n in sent.items() if n}}


def workspace_notify_of(workspace_id, now: datetime, awaited: datetime) -> Counter:
    row = (
        NotificationSettings.objects.select_related("workspace")
        .filter(pk=workspace_id, workspace__archived_at__isnull=True)
        .first()
    )
    if row is None:
        return Counter()
    return workspace_notify(row, now, awaited)
