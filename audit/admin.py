from django.contrib import admin

from .models import AuditEvent


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    """The audit log is read, never written, here."""

    list_display = (
        "at",
        "action",
        "actor_kind",
        "actor_label",
        "target_type",
        "target_id",
        "workspace",
        "agency",
    )
    list_filter = ("action", "actor_kind", "target_type")
    list_select_related = ("workspace", "agency")
    search_fields = ("action", "actor_label", "actor_id", "target_id", "reason", "workspace__slug")
    date_hierarchy = "at"
    show_full_result_count = False

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in self.model._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
