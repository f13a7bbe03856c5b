from django.apps import AppConfig


class IntegrationsConfig(AppConfig):
    name = "integrations"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from core.crypto import encrypted_columns_register

        from .models import Connection

        # The rotation of FIELD_ENCRYPTION_KEY re-encrypts the connections' secrets too.
        encrypted_columns_register(
            Connection,
            "credentials_encrypted",
            "signing_secret_encrypted",
            label="integration_connections",
        )
