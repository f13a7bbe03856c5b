from django.apps import AppConfig


class IntegrationsConfig(AppConfig):
    name = "integrations"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from tokens.crypto import encrypted_columns_register

        # The rotation of FIELD_ENCRYPTION_KEY re-encrypts the connections' secrets too.
        encrypted_columns_register(
            "integrations.Connection",
            counted_as="integration_connections",
            columns=("credentials_encrypted", "signing_secret_encrypted"),
        )
