from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "core"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # Models load only once the app registry is ready.
        from .crypto import encrypted_columns_register  # noqa: PLC0415
        from .models import IdempotencyRecord  # noqa: PLC0415

        encrypted_columns_register(IdempotencyRecord, "response", label="idempotency_keys")

        from .metrics import connect_signals  # noqa: PLC0415

        connect_signals()
