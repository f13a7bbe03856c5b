from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from core.crypto import encrypted_columns_register  # noqa: PLC0415 (app loading)

        from . import signals  # noqa: F401, PLC0415 (a new workspace's settings)
        from .models import NotificationSettings  # noqa: PLC0415 (app loading)

        # The rotation of FIELD_ENCRYPTION_KEY re-encrypts the Slack addresses too.
        encrypted_columns_register(
            NotificationSettings, "slack_webhook_encrypted", label="notification_settings"
        )
