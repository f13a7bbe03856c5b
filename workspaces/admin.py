from django.contrib import admin

from .models import (
    AdSpend,
    Agency,
    Call,
    CommissionRule,
    EodReport,
    Funnel,
    FunnelEvent,
    FunnelStage,
    Instalment,
    Lead,
    Member,
    Outcome,
    Payment,
    Refund,
    Registration,
    Sale,
    Touch,
    WebinarEvent,
    Workspace,
)


class WorkspaceInline(admin.TabularInline):
    model = Workspace
    fields = ("name", "slug", "currency", "timezone", "archived_at")
    show_change_link = True
    extra = 0


@admin.register(Agency)
class AgencyAdmin(admin.ModelAdmin):
    list_display = ("name", "tier", "created_at")
    list_filter = ("tier",)
    search_fields = ("name", "id")
    raw_id_fields = ("users",)
    inlines = [WorkspaceInline]


class MemberInline(admin.TabularInline):
    model = Member
    fields = ("name", "email", "role", "joined_at", "is_active", "user")
    raw_id_fields = ("user",)
    show_change_link = True
    extra = 0


@admin.register(Workspace)
class WorkspaceAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "agency", "currency", "timezone", "status", "created_at")
    list_filter = ("currency", "agency__tier", "archived_at")
    list_select_related = ("agency",)
    search_fields = ("name", "slug", "id")
    raw_id_fields = ("agency",)
    inlines = [MemberInline]

    def get_queryset(self, request):
        # Archived workspaces too: the admin is where they are looked after.
        return Workspace.objects.select_related("agency")


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    list_display = ("name", "email", "role", "workspace", "joined_at", "is_active")
    list_filter = ("role", "is_active")
    list_select_related = ("workspace",)
    search_fields = ("name", "email", "external_id", "workspace__slug")
    raw_id_fields = ("workspace", "user")


class ReadOnlyMixin:
    """Sales records arrive through the API and the import, whose services keep the
    values the figures rely on and audit every write: here they are only read."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class RecordAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Shared settings of the sales records: big tables, so foreign keys are raw ids."""

    list_select_related = ("workspace",)
    list_filter = ()
    search_fields = ("external_id", "workspace__slug")
    raw_id_fields = ("workspace",)
    list_per_page = 50
    show_full_result_count = False


@admin.register(Lead)
class LeadAdmin(RecordAdmin):
    list_display = ("__str__", "email", "created_at", "status", "utm_source", "workspace")
    list_filter = ("status", "utm_source", "utm_medium")
    search_fields = ("name", "email", "external_id", "utm_campaign", "workspace__slug")
    raw_id_fields = ("workspace", "setter")
    date_hierarchy = "created_at"


@admin.register(Touch)
class TouchAdmin(RecordAdmin):
    list_display = ("id", "lead", "member", "channel", "at", "workspace")
    list_filter = ("channel",)
    list_select_related = ("workspace", "lead", "member")
    search_fields = ("external_id", "lead__email", "lead__name")
    raw_id_fields = ("workspace", "lead", "member")


@admin.register(Call)
class CallAdmin(RecordAdmin):
    list_display = (
        "id",
        "lead",
        "scheduled_for",
        "status",
        "attendance",
        "outcome",
        "replaced",
        "closer",
        "workspace",
    )
    list_filter = ("status", "attendance", "outcome", "replaced")
    list_select_related = ("workspace", "lead", "closer")
    search_fields = ("external_id", "lead__email", "lead__name")
    raw_id_fields = ("workspace", "lead", "closer", "setter", "rescheduled_from")
    # Kept by the record writers from the call's outcomes and reschedules.
    readonly_fields = ("outcome", "replaced")
    date_hierarchy = "scheduled_for"


@admin.register(Outcome)
class OutcomeAdmin(RecordAdmin):
    list_display = ("id", "result", "call", "lead", "member", "at", "workspace")
    list_filter = ("result", "offer_made")
    list_select_related = ("workspace", "call", "lead", "member")
    search_fields = ("external_id", "lead__email", "reason")
    raw_id_fields = ("workspace", "call", "lead", "member")


class InstalmentInline(ReadOnlyMixin, admin.TabularInline):
    model = Instalment
    extra = 0


@admin.register(Sale)
class SaleAdmin(RecordAdmin):
    list_display = (
        "id",
        "lead",
        "origin",
        "closed_at",
        "contract_value",
        "payment_plan",
        "workspace",
    )
    list_filter = ("origin", "payment_plan")
    list_select_related = ("workspace", "lead")
    search_fields = ("external_id", "lead__email", "lead__name")
    raw_id_fields = ("workspace", "lead", "call", "closer", "setter")
    inlines = [InstalmentInline]
    date_hierarchy = "closed_at"


@admin.register(Payment)
class PaymentAdmin(RecordAdmin):
    list_display = ("id", "sale", "paid_at", "amount", "status", "workspace")
    list_filter = ("status",)
    raw_id_fields = ("workspace", "sale")
    date_hierarchy = "paid_at"


@admin.register(Refund)
class RefundAdmin(RecordAdmin):
    list_display = ("id", "payment", "kind", "at", "amount", "workspace")
    list_filter = ("kind",)
    raw_id_fields = ("workspace", "payment", "sale")


@admin.register(AdSpend)
class AdSpendAdmin(RecordAdmin):
    list_display = (
        "external_id",
        "date",
        "platform",
        "utm_source",
        "utm_campaign",
        "amount",
        "workspace",
    )
    list_filter = ("platform",)
    search_fields = ("external_id", "utm_campaign", "campaign_name", "workspace__slug")
    date_hierarchy = "date"


@admin.register(EodReport)
class EodReportAdmin(RecordAdmin):
    list_display = ("member", "date", "submitted_at", "workspace")
    list_select_related = ("workspace", "member")
    search_fields = ("external_id", "member__email", "member__name")
    raw_id_fields = ("workspace", "member")
    date_hierarchy = "date"


@admin.register(WebinarEvent)
class WebinarEventAdmin(RecordAdmin):
    list_display = ("name", "starts_at", "pitch_at", "workspace")
    search_fields = ("name", "external_id", "workspace__slug")


@admin.register(Registration)
class RegistrationAdmin(RecordAdmin):
    list_display = ("id", "event", "lead", "registered_at", "joined_at", "left_at", "workspace")
    list_select_related = ("workspace", "event", "lead")
    search_fields = ("external_id", "lead__email", "event__name")
    raw_id_fields = ("workspace", "event", "lead")


class FunnelStageInline(ReadOnlyMixin, admin.TabularInline):
    model = FunnelStage
    extra = 0


@admin.register(Funnel)
class FunnelAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("key", "name", "workspace")
    list_select_related = ("workspace",)
    search_fields = ("key", "name", "workspace__slug")
    raw_id_fields = ("workspace",)
    inlines = [FunnelStageInline]


@admin.register(FunnelEvent)
class FunnelEventAdmin(RecordAdmin):
    list_display = ("id", "lead", "funnel", "stage", "at", "workspace")
    list_filter = ("stage__key",)
    list_select_related = ("workspace", "lead", "funnel", "stage")
    search_fields = ("external_id", "lead__email", "funnel__key")
    raw_id_fields = ("workspace", "lead", "funnel", "stage")


@admin.register(CommissionRule)
class CommissionRuleAdmin(RecordAdmin):
    list_display = ("member", "basis", "slot", "rate", "workspace")
    list_filter = ("basis", "slot")
    list_select_related = ("workspace", "member")
    search_fields = ("external_id", "member__email", "member__name")
    raw_id_fields = ("workspace", "member")
