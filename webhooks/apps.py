from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "webhooks"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from core.crypto import encrypted_columns_register  # noqa: PLC0415 (app loading)
        from events.services import dispatcher_set  # noqa: PLC0415

        from .dispatch import DISPATCHER  # noqa: PLC0415
        from .models import WebhookEndpoint  # noqa: PLC0415

        dispatcher_set(DISPATCHER)
        encrypted_columns_register(WebhookEndpoint, "secret_encrypted", label="webhook_endpoints")
