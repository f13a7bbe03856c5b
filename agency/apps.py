from django.apps import AppConfig


class AgencyConfig(AppConfig):
    name = "agency"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from core.crypto import encrypted_columns_register

        from .models import IntegrationConnection

        encrypted_columns_register(
            IntegrationConnection, "credential_encrypted", label="integration_connections"
        )
