"""Tenancy (agencies, workspaces, members) and every record the figures read.

Money is kept as integer minor units of the workspace currency. Every time a figure
filters on carries an index that starts with the workspace, so a figure's cost grows
with the records of its period, not with the size of the workspace.
"""

import uuid
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Upper
from django.utils import timezone

from core.emails import email_normalise
from core.errors import InvalidField
from core.money import exponent_of

from .contact import never_contacted
from .validators import logo_url, origin_normalise

DEFAULT_WORKING_DAYS = [0, 1, 2, 3, 4]  # Monday to Friday, as date.weekday() numbers


def default_working_days():
    return list(DEFAULT_WORKING_DAYS)


def default_branding():
    return {"logo": "", "colours": {}, "labels": {}, "modules": [], "programmes": []}


class Agency(models.Model):
    class Tier(models.TextChoices):
        STARTER = "starter"
        AGENCY = "agency"
        ENTERPRISE = "enterprise"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=200)
    tier = models.CharField(max_length=20, choices=Tier.choices, default=Tier.STARTER)
    users = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="agencies")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "agencies"

    def __str__(self):
        return self.name

    @property
    def has_agency_plan(self) -> bool:
        return self.tier in {self.Tier.AGENCY, self.Tier.ENTERPRISE}


class ActiveWorkspaceManager(models.Manager):
    def get_queryset(self):
        return super().get_queryset().filter(archived_at__isnull=True)


class Workspace(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    agency = models.ForeignKey(
        Agency, null=True, blank=True, on_delete=models.PROTECT, related_name="workspaces"
    )
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=64, unique=True)
    currency = models.CharField(max_length=3, default="USD")
    timezone = models.CharField(max_length=64, default="UTC")
    # How the app's pages write numbers and money here: a locale Babel knows ("en", "de").
    locale = models.CharField(max_length=32, default="en", db_default="en")
    working_days = models.JSONField(default=default_working_days)
    # Whether closers and setters see their role's whole leaderboard, or only their rank.
    leaderboard_visible = models.BooleanField(default=True, db_default=True)
    # The country (ISO 3166 alpha-2) a lead's phone number written without its country code
    # is read in; empty: the time zone's (workspaces.identifiers.workspace_country).
    country = models.CharField(max_length=2, blank=True, default="", db_default="")
    branding = models.JSONField(default=default_branding, blank=True)
    embedded_origins = models.JSONField(default=list, blank=True)
    archived_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = models.Manager()
    active = ActiveWorkspaceManager()

    def __str__(self):
        return self.name

    def clean(self):
        """The admin's form check: the origin and logo rules of the settings pages and plans,
        so no edit can list an origin a browser never sends, or a logo that is no https URL."""
        errors = {}
        try:
            if not isinstance(self.embedded_origins, list):
                raise InvalidField("embedded_origins", "List the origins as a JSON array.")
            self.embedded_origins = list(
                dict.fromkeys(
                    origin_normalise(origin, field=f"embedded_origins.{index}")
                    for index, origin in enumerate(self.embedded_origins)
                )
            )
        except InvalidField as error:
            errors["embedded_origins"] = error.message
        if isinstance(self.branding, dict) and "logo" in self.branding:
            try:
                self.branding["logo"] = logo_url(self.branding["logo"], field="branding.logo")
            except InvalidField as error:
                errors["branding"] = error.message
        if errors:
            raise ValidationError(errors)

    @property
    def status(self) -> str:
        return "archived" if self.archived_at else "active"

    @property
    def currency_exponent(self) -> int:
        return exponent_of(self.currency)


class Member(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner"
        ADMIN = "admin"
        MANAGER = "manager"
        CLOSER = "closer"
        SETTER = "setter"
        SDR = "sdr"

    WORKSPACE_WIDE_ROLES = frozenset({"owner", "admin", "manager"})
    ADMIN_ROLES = frozenset({"owner", "admin"})
    REPORTING_ROLES = frozenset({"closer", "setter", "sdr"})

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="memberships",
    )
    external_id = models.CharField(max_length=200, null=True, blank=True)
    name = models.CharField(max_length=200)
    email = models.EmailField()
    role = models.CharField(max_length=20, choices=Role.choices)
    joined_at = models.DateField(null=True, blank=True)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["workspace", "email"], name="member_email_unique"),
            models.UniqueConstraint(
                fields=["workspace", "external_id"], name="member_external_id_unique"
            ),
        ]

    def __str__(self):
        return f"{self.name} ({self.role})"

    def save(self, *args, **kwargs):
        # The one form every look-up by email uses (core.emails).
        self.email = email_normalise(self.email or "")
        super().save(*args, **kwargs)

    @property
    def is_workspace_wide(self) -> bool:
        return self.role in self.WORKSPACE_WIDE_ROLES


class Invitation(models.Model):
    """A place in a workspace offered to a person by email.

    Nobody's existing account is linked to a workspace without them: the person whose
    email it is accepts (and becomes a member with the role) or declines after signing in.
    A person with no account chooses a password through the emailed link, which accepts it.
    A member a plan made with its new workspace has an invitation too, already naming the
    member: its link sets that member's first password.
    """

    class State(models.TextChoices):
        # Proposed by an agency's plan on a workspace that already exists: nothing is mailed
        # to the person, and nobody can accept it, until an active owner approves it (it is
        # then pending) or declines it (refused).
        PROPOSED = "proposed"
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        REVOKED = "revoked"
        REFUSED = "refused"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField()
    name = models.CharField(max_length=200, blank=True)
    role = models.CharField(max_length=20, choices=Member.Role.choices)
    # The plan that invited the person (an agency's plan; kept as its id so that tenancy
    # does not depend on the agency app).
    plan_id = models.UUIDField(null=True, blank=True)
    # The agency whose plan proposed the person, as shown to the owners who decide.
    proposed_by = models.CharField(max_length=200, blank=True, default="")
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    # When the latest link was emailed: only that link opens, for INVITATION_MAX_AGE.
    sent_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    member = models.ForeignKey(
        Member, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["workspace", "email"],
                condition=Q(state__in=["pending", "proposed"]),
                name="invitation_open_once",
            ),
        ]
        indexes = [models.Index(fields=["email", "state"], name="invitation_email_state")]
        ordering = ["created_at"]

    def __str__(self):
        return f"invitation of {self.email} to {self.workspace_id} ({self.state})"

    def save(self, *args, **kwargs):
        self.email = email_normalise(self.email or "")
        super().save(*args, **kwargs)

    @property
    def link_expires_at(self):
        sent = self.sent_at or self.created_at
        return sent + timedelta(seconds=settings.INVITATION_MAX_AGE)

    @property
    def shown_state(self) -> str:
        """proposed, sent, accepted, declined, revoked, refused or expired (a pending
        invitation whose link expired)."""
        if self.state != self.State.PENDING:
            return self.state
        return "expired" if timezone.now() >= self.link_expires_at else "sent"


class WorkspaceRecord(models.Model):
    """Common columns of every sales record: its workspace and the source's own id."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    external_id = models.CharField(max_length=200, null=True, blank=True)

    class Meta:
        abstract = True


def _external_id_unique(name: str) -> models.UniqueConstraint:
    return models.UniqueConstraint(fields=["workspace", "external_id"], name=f"{name}_ext_unique")


class UtmTags(models.Model):
    """One combination of the four UTM tags that leads of the workspace carry, kept by the
    lead writers (workspaces.kept.utm_tags_ids) so /attribution groups the period's leads
    by one small key instead of four texts."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    source = models.CharField(max_length=200, blank=True)
    medium = models.CharField(max_length=200, blank=True)
    campaign = models.CharField(max_length=200, blank=True)
    content = models.CharField(max_length=200, blank=True)
    # SHA-256 (hex) of the four tags joined by U+001F: unique per workspace, since the four
    # texts together may be longer than an index entry can be.
    digest = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["workspace", "digest"], name="utm_tags_unique")
        ]

    def __str__(self):
        return " / ".join((self.source, self.medium, self.campaign, self.content))


class LeadQuerySet(models.QuerySet):
    def with_emails(self, workspace, emails):
        """The workspace's leads whose email, in any case, is one of `emails`, each with its
        `email_upper`: one statement on the index lead_ws_email_upper. Python's upper() and
        the database's agree for ASCII emails only: callers pass those."""
        return (
            self.filter(workspace=workspace)
            .annotate(email_upper=Upper("email"))
            .filter(email_upper__in=sorted({email.upper() for email in emails}))
        )


class Lead(WorkspaceRecord):
    name = models.CharField(max_length=200, blank=True)
    email = models.EmailField(blank=True)
    created_at = models.DateTimeField()
    status = models.CharField(max_length=40, default="new")
    setter = models.ForeignKey(
        Member, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    utm_source = models.CharField(max_length=200, blank=True)
    utm_medium = models.CharField(max_length=200, blank=True)
    utm_campaign = models.CharField(max_length=200, blank=True)
    utm_content = models.CharField(max_length=200, blank=True)
    # The combination of the four tags above, kept by the lead writers.
    utm_tags = models.ForeignKey(
        UtmTags,
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="+",
        db_index=False,
    )
    # The earliest touch that counts as a first contact (workspaces.contact); kept on the
    # lead so speed-to-lead reads one table.
    first_contact_at = models.DateTimeField(null=True, blank=True)
    # Whether any sale names the lead, and the succeeded payments on its sales (minor
    # units), kept by the services so attribution reads the period's leads only.
    has_sale = models.BooleanField(default=False)
    cash_collected = models.BigIntegerField(default=0)
    # Whether the lead has a call that counts (not cancelled, not replaced by another), and
    # one of those marked showed: kept by the services so /acquisition reads the period's
    # leads only.
    has_booking = models.BooleanField(default=False, db_default=False)
    has_show = models.BooleanField(default=False, db_default=False)
    # What the ad platforms know the lead by (workspaces.identifiers): the phone in E.164,
    # Meta's click id in its cookie form (fb.1.<ms>.<fbclid>) and browser id, Google's
    # click ids. Never answered in full by the figures API.
    phone = models.CharField(max_length=16, blank=True, default="", db_default="")
    fbc = models.CharField(max_length=500, blank=True, default="", db_default="")
    fbp = models.CharField(max_length=200, blank=True, default="", db_default="")
    gclid = models.CharField(max_length=200, blank=True, default="", db_default="")
    gbraid = models.CharField(max_length=200, blank=True, default="", db_default="")
    wbraid = models.CharField(max_length=200, blank=True, default="", db_default="")

    objects = LeadQuerySet.as_manager()

    class Meta:
        constraints = [_external_id_unique("lead")]
        indexes = [
            # On PostgreSQL it covers the grouped passes of /attribution and /acquisition
            # (index-only scans).
            models.Index(
                fields=["workspace", "created_at"],
                name="lead_ws_created",
                include=["utm_tags", "has_sale", "cash_collected", "has_booking", "has_show"],
            ),
            # The period's leads never contacted (a count on the overview, the list it
            # opens), without reading the others.
            models.Index(
                fields=["workspace", "created_at"],
                name="lead_ws_created_uncontacted",
                condition=never_contacted(),
            ),
            # The leads of every workspace still waiting for a first contact, by when they
            # came in: the notifications round's speed-to-lead alerts, one range a minute.
            models.Index(
                fields=["created_at"],
                name="lead_uncontacted_created",
                condition=never_contacted(),
            ),
            # A lead found by its email in any case (`email__iexact`, which compares
            # UPPER(email)): a provider's charge, booking or contact names its lead so.
            models.Index(F("workspace"), Upper("email"), name="lead_ws_email_upper"),
        ]

    def __str__(self):
        return self.name or self.email or str(self.id)


class Touch(WorkspaceRecord):
    lead = models.ForeignKey(Lead, on_delete=models.CASCADE, related_name="touches")
    member = models.ForeignKey(
        Member, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    channel = models.CharField(max_length=40, blank=True)
    at = models.DateTimeField()

    class Meta:
        constraints = [_external_id_unique("touch")]
        indexes = [models.Index(fields=["workspace", "at"], name="touch_ws_at")]


class Call(WorkspaceRecord):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled"
        CANCELLED = "cancelled"

    class Attendance(models.TextChoices):
        SHOWED = "showed"
        NO_SHOW = "no_show"

    # Indexed by call_lead_booked below, which also serves lookups by lead alone.
    lead = models.ForeignKey(Lead, on_delete=models.CASCADE, related_name="calls", db_index=False)
    booked_at = models.DateTimeField()
    scheduled_for = models.DateTimeField()
    closer = models.ForeignKey(
        Member, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    setter = models.ForeignKey(
        Member, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.SCHEDULED)
    rescheduled_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rescheduled_to"
    )
    # True once another call names this one in rescheduled_from: it no longer counts.
    replaced = models.BooleanField(default=False)
    attendance = models.CharField(max_length=20, choices=Attendance.choices, blank=True)
    offer_made = models.BooleanField(null=True, blank=True)
    # The result and the reason of the call's latest outcome record, kept here by the
    # services (workspaces.kept.calls_outcome_refresh).
    outcome = models.CharField(max_length=20, blank=True)
    outcome_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        constraints = [_external_id_unique("call")]
        indexes = [
            models.Index(
                fields=["workspace", "scheduled_for"],
                name="call_ws_sched_live",
                condition=Q(replaced=False),
            ),
            models.Index(fields=["workspace", "booked_at"], name="call_ws_booked"),
            models.Index(fields=["lead", "booked_at"], name="call_lead_booked"),
        ]


class Outcome(WorkspaceRecord):
    class Result(models.TextChoices):
        CLOSED = "closed"
        DEPOSIT = "deposit"
        FOLLOW_UP = "follow_up"
        NO_SALE = "no_sale"
        DISQUALIFIED = "disqualified"

    call = models.ForeignKey(
        Call, null=True, blank=True, on_delete=models.CASCADE, related_name="outcomes"
    )
    # A past-call outcome has no call: it names its lead and member directly.
    lead = models.ForeignKey(
        Lead, null=True, blank=True, on_delete=models.CASCADE, related_name="outcomes"
    )
    member = models.ForeignKey(
        Member, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    result = models.CharField(max_length=20, choices=Result.choices)
    offer_made = models.BooleanField(null=True, blank=True)
    reason = models.CharField(max_length=200, blank=True)
    notes = models.TextField(blank=True)
    at = models.DateTimeField()

    class Meta:
        constraints = [_external_id_unique("outcome")]
        indexes = [
            models.Index(
                fields=["workspace", "at"], name="outcome_ws_past", condition=Q(call__isnull=True)
            ),
        ]


class Sale(WorkspaceRecord):
    class Origin(models.TextChoices):
        CALL = "call"
        PAST_CALL = "past_call"
        DM = "dm"

    class PaymentPlan(models.TextChoices):
        PAID_IN_FULL = "paid_in_full"
        SPLIT = "split"
        FINANCED = "financed"

    lead = models.ForeignKey(Lead, on_delete=models.CASCADE, related_name="sales")
    call = models.ForeignKey(
        Call, null=True, blank=True, on_delete=models.SET_NULL, related_name="sales"
    )
    origin = models.CharField(max_length=20, choices=Origin.choices, default=Origin.CALL)
    closed_at = models.DateTimeField()
    closer = models.ForeignKey(
        Member, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    setter = models.ForeignKey(
        Member, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    contract_value = models.BigIntegerField(help_text="Minor units of the workspace currency.")
    payment_plan = models.CharField(max_length=20, choices=PaymentPlan.choices, blank=True)
    # The succeeded payments on the sale (minor units), kept by the services, so the
    # collection rate reads the period's sales alone.
    cash_collected = models.BigIntegerField(default=0)

    class Meta:
        constraints = [_external_id_unique("sale")]
        indexes = [
            # The period's sales with the columns /payments and /commission add up and
            # group by: read from the index alone (index-only scans).
            models.Index(
                fields=["workspace", "closed_at"],
                name="sale_ws_closed",
                include=["contract_value", "cash_collected", "closer", "setter"],
            )
        ]


class Instalment(models.Model):
    sale = models.ForeignKey(Sale, on_delete=models.CASCADE, related_name="instalments")
    due_date = models.DateField()
    amount = models.BigIntegerField()


class Payment(WorkspaceRecord):
    class Status(models.TextChoices):
        SUCCEEDED = "succeeded"
        FAILED = "failed"

    sale = models.ForeignKey(Sale, on_delete=models.CASCADE, related_name="payments")
    paid_at = models.DateTimeField()
    amount = models.BigIntegerField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.SUCCEEDED)
    # The sale's closer and setter, kept by the services, so cash per member reads the
    # period's payments alone.
    closer = models.ForeignKey(
        Member, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )
    setter = models.ForeignKey(
        Member, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )

    class Meta:
        constraints = [_external_id_unique("payment")]
        indexes = [
            # The period's cash with the columns /payments, /commission and the cash
            # series add up and group by: read from the index alone.
            models.Index(
                fields=["workspace", "paid_at"],
                name="payment_ws_paid_ok",
                condition=Q(status="succeeded"),
                include=["amount", "closer", "setter"],
            ),
            # The succeeded cash of given sales (the refresh of Sale.cash_collected) read
            # from the index alone.
            models.Index(
                fields=["sale"],
                name="payment_sale_ok",
                condition=Q(status="succeeded"),
                include=["amount"],
            ),
        ]


class Refund(WorkspaceRecord):
    class Kind(models.TextChoices):
        REFUND = "refund"
        CHARGEBACK = "chargeback"

    payment = models.ForeignKey(Payment, on_delete=models.CASCADE, related_name="refunds")
    sale = models.ForeignKey(Sale, on_delete=models.CASCADE, related_name="refunds")
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.REFUND)
    at = models.DateTimeField()
    amount = models.BigIntegerField()

    class Meta:
        constraints = [_external_id_unique("refund")]
        indexes = [models.Index(fields=["workspace", "at"], name="refund_ws_at")]


class AdSpend(WorkspaceRecord):
    """What the ads of one campaign cost on one day, as a platform (or the API, or the
    import) reports it. The external id is the record's identity: platforms revise recent
    days, and a revision written with the same id replaces the amount."""

    date = models.DateField(help_text="The day the money was spent, a day of the workspace.")
    platform = models.CharField(max_length=32)
    utm_source = models.CharField(max_length=200, blank=True)
    utm_medium = models.CharField(max_length=200, blank=True)
    utm_campaign = models.CharField(max_length=200, blank=True)
    utm_content = models.CharField(max_length=200, blank=True)
    campaign_id = models.CharField(max_length=200, blank=True)
    campaign_name = models.CharField(max_length=200, blank=True)
    impressions = models.BigIntegerField(null=True, blank=True)
    clicks = models.BigIntegerField(null=True, blank=True)
    amount = models.BigIntegerField(help_text="Minor units of the workspace currency.")

    class Meta:
        constraints = [_external_id_unique("ad_spend")]
        indexes = [
            # On PostgreSQL it covers /acquisition's grouped pass (an index-only scan).
            models.Index(
                fields=["workspace", "date"],
                name="ad_spend_ws_date",
                include=["utm_source", "utm_campaign", "amount"],
            ),
        ]


class EodReport(WorkspaceRecord):
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="eod_reports")
    date = models.DateField()
    submitted_at = models.DateTimeField()
    fields = models.JSONField(default=dict, blank=True)

    class Meta:
        constraints = [
            _external_id_unique("eod"),
            models.UniqueConstraint(fields=["member", "date"], name="eod_one_per_member_day"),
        ]
        indexes = [models.Index(fields=["workspace", "date"], name="eod_ws_date")]


class WebinarEvent(WorkspaceRecord):
    name = models.CharField(max_length=200)
    starts_at = models.DateTimeField()
    pitch_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [_external_id_unique("webinar")]
        indexes = [models.Index(fields=["workspace", "starts_at"], name="webinar_ws_starts")]

    def __str__(self):
        return self.name


class Registration(WorkspaceRecord):
    # Indexed by registration_event_counts below.
    event = models.ForeignKey(
        WebinarEvent, on_delete=models.CASCADE, related_name="registrations", db_index=False
    )
    lead = models.ForeignKey(Lead, on_delete=models.CASCADE, related_name="registrations")
    registered_at = models.DateTimeField()
    joined_at = models.DateTimeField(null=True, blank=True)
    left_at = models.DateTimeField(null=True, blank=True)
    # Whether the lead booked a call at or after the event's start, kept by the services.
    booked_after = models.BooleanField(default=False)

    class Meta:
        constraints = [_external_id_unique("registration")]
        indexes = [
            models.Index(fields=["event", "lead"], name="registration_event_lead"),
            # An event's registrations with every column /webinar counts them by: the
            # period's events, then each one's registrations from the index alone. Without
            # it PostgreSQL reckons each event's registrations costly enough to scan every
            # workspace's events in parallel (7 ms at 10M leads, against 2 with it).
            models.Index(
                fields=["event"],
                name="registration_event_counts",
                include=["id", "workspace", "joined_at", "left_at", "booked_after"],
            ),
        ]


class Funnel(models.Model):
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="funnels")
    key = models.SlugField(max_length=64)
    name = models.CharField(max_length=200)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["workspace", "key"], name="funnel_key")]

    def __str__(self):
        return self.key


class FunnelStage(models.Model):
    funnel = models.ForeignKey(Funnel, on_delete=models.CASCADE, related_name="stages")
    key = models.SlugField(max_length=64)
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["funnel", "key"], name="funnel_stage_key"),
            models.UniqueConstraint(fields=["funnel", "position"], name="funnel_stage_position"),
        ]


class FunnelEvent(WorkspaceRecord):
    lead = models.ForeignKey(Lead, on_delete=models.CASCADE, related_name="funnel_events")
    funnel = models.ForeignKey(Funnel, on_delete=models.CASCADE, related_name="events")
    stage = models.ForeignKey(FunnelStage, on_delete=models.CASCADE, related_name="events")
    at = models.DateTimeField()

    class Meta:
        constraints = [_external_id_unique("funnel_event")]
        indexes = [
            models.Index(fields=["workspace", "funnel", "at"], name="funnel_event_ws_at"),
            models.Index(fields=["funnel", "lead", "at"], name="funnel_event_lead_at"),
        ]


class FunnelProgress(models.Model):
    """How far one lead went through one funnel, kept by the services from its events.

    ``entered_at`` is the lead's earliest event at the funnel's first stage; ``depth`` is
    how many stages it reached in order (stage k counts when an event at stage k comes
    at or after the time stage k-1 was reached), from 1 to the number of stages.
    """

    id = models.BigAutoField(primary_key=True)
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    funnel = models.ForeignKey(Funnel, on_delete=models.CASCADE, related_name="progress")
    lead = models.ForeignKey(Lead, on_delete=models.CASCADE, related_name="funnel_progress")
    entered_at = models.DateTimeField()
    depth = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["funnel", "lead"], name="funnel_progress_lead")
        ]
        indexes = [
            models.Index(
                fields=["workspace", "funnel", "entered_at"],
                name="funnel_progress_entered",
                include=["depth"],
            )
        ]


class CommissionRule(WorkspaceRecord):
    class Basis(models.TextChoices):
        CASH_COLLECTED = "cash_collected"
        REVENUE_BOOKED = "revenue_booked"

    class Slot(models.TextChoices):
        CLOSER = "closer"
        SETTER = "setter"

    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="commission_rules")
    basis = models.CharField(max_length=20, choices=Basis.choices)
    slot = models.CharField(max_length=20, choices=Slot.choices)
    rate = models.DecimalField(max_digits=6, decimal_places=4)

    class Meta:
        constraints = [
            _external_id_unique("commission_rule"),
            models.UniqueConstraint(fields=["member"], name="commission_one_rule_per_member"),
        ]


class Goal(WorkspaceRecord):
    """What a member (or, with no member, the whole workspace) should reach in a month of
    the workspace's calendar, on one of GOAL_METRICS. Written only by
    workspaces.services.goals; read by figures.selectors.goals."""

    class Metric(models.TextChoices):
        LEADS_CREATED = "leads.created"
        CALLS_BOOKED = "calls.booked"
        CALLS_TAKEN = "calls.taken"
        CALLS_CLOSED = "calls.closed"
        CASH_COLLECTED = "payments.cash_collected"
        REVENUE_BOOKED = "payments.revenue_booked"

    # The metrics whose target is money (minor units); the others' is a count.
    MONEY_METRICS = frozenset({Metric.CASH_COLLECTED, Metric.REVENUE_BOOKED})

    # The first day of the month.
    month = models.DateField()
    metric = models.CharField(max_length=40, choices=Metric.choices)
    member = models.ForeignKey(
        Member, null=True, blank=True, on_delete=models.CASCADE, related_name="goals"
    )
    target = models.BigIntegerField(
        help_text="A count, or minor units of the workspace currency for a money metric."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            _external_id_unique("goal"),
            models.UniqueConstraint(
                fields=["workspace", "month", "metric", "member"],
                condition=models.Q(member__isnull=False),
                name="goal_one_per_member",
            ),
            models.UniqueConstraint(
                fields=["workspace", "month", "metric"],
                condition=models.Q(member__isnull=True),
                name="goal_one_per_workspace",
            ),
        ]


class RecordUpload(models.Model):
    """A file of records uploaded on the Import page, kept with the JSON Lines the importer
    reads (a CSV is converted first), what the worker's check found and, once confirmed and
    imported by the worker, what arrived or the line that stopped it. Written only by
    workspaces.services.uploads."""

    class State(models.TextChoices):
        CHECKING = "checking"  # uploaded: the worker checks it (writing nothing)
        CHECKED = "checked"  # checked: the person may confirm it
        REFUSED = "refused"  # the check found errors: nothing can be imported from it
        QUEUED = "queued"  # confirmed: the worker imports it (its progress is in the cache)
        IMPORTED = "imported"
        FAILED = "failed"  # a line stopped the import: nothing of it was written
        CANCELLED = "cancelled"  # stopped by a person while checked or imported: nothing written

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="uploads")
    file_name = models.CharField(max_length=200)
    # "jsonl", or the record type of a CSV file (one type a file).
    kind = models.CharField(max_length=32)
    # The file's text as uploaded until the worker converts it (`converted` false), then the
    # JSON Lines the importer reads.
    lines = models.TextField()
    converted = models.BooleanField(default=True)
    records = models.PositiveIntegerField(default=0)
    # {"columns": [...], "rows": [{"line": n, "cells": [...]}, ...]}: the first rows.
    preview = models.JSONField(default=dict)
    # [{"line": n, "column": name or "", "message": text}, ...], by line.
    errors = models.JSONField(default=list)
    state = models.CharField(max_length=16, choices=State.choices, default=State.CHECKING)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # {type: {"created": n, "updated": n}} once imported.
    counts = models.JSONField(default=dict)
    # {"line": n, "column": name or "", "message": text} when a line stopped the import.
    failure = models.JSONField(default=dict)

    class Meta:
        indexes = [models.Index(fields=["workspace", "created_at"], name="upload_ws_created")]
        ordering = ["-created_at"]

    def __str__(self):
        return f"upload {self.file_name} ({self.state})"
