from django.contrib import admin

from .models import IdempotencyRecord


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin):
    """Read-only: the stored answers are encrypted and may carry secrets."""

    list_display = ("key", "scope", "status_code", "created_at", "completed_at")
    list_filter = ("status_code",)
    search_fields = ("key", "scope")
    fields = ("scope", "key", "fingerprint", "status_code", "created_at", "completed_at")
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
