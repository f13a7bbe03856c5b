from django.contrib import admin, messages
from django.utils import timezone

from audit.services import Actor

from .models import ApiToken, EmbeddedApp
from .services import token_revoke


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens are minted where they can be shown once (settings, console, mint_token).

    Here they are read and revoked: the digest is never shown, the plaintext never held.
    """

    list_display = (
        "name",
        "display",
        "kind",
        "workspace",
        "agency",
        "created_at",
        "last_used_at",
        "revoked_at",
    )
    list_filter = ("kind", ("revoked_at", admin.EmptyFieldListFilter))
    list_select_related = ("workspace", "agency")
    search_fields = ("name", "prefix", "last_four", "workspace__slug", "agency__name")
    fields = (
        "name",
        "kind",
        "display",
        "scopes",
        "workspace",
        "agency",
        "created_by",
        "created_at",
        "last_used_at",
        "expires_at",
        "revoked_at",
    )
    readonly_fields = fields
    actions = ["revoke"]

    def has_add_permission(self, request):
        return False

    @admin.display(description="token")
    def display(self, obj):
        return obj.display

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request, queryset):
        actor = Actor.for_user(request.user)
        count = 0
        for token in queryset.filter(revoked_at__isnull=True):
            token_revoke(actor=actor, token=token, reason="revoked in the admin")
            count += 1
        self.message_user(
            request, f"Revoked {count} token(s) at {timezone.now():%H:%M}.", messages.SUCCESS
        )


@admin.register(EmbeddedApp)
class EmbeddedAppAdmin(admin.ModelAdmin):
    list_display = ("application", "workspace", "created_at")
    list_select_related = ("application", "workspace")
    search_fields = ("application__name", "application__client_id", "workspace__slug")
    raw_id_fields = ("workspace", "application")
