from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "core"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from .crypto import encrypted_columns_register
        from .models import IdempotencyRecord

        encrypted_columns_register(IdempotencyRecord, "response", label="idempotency_keys")
