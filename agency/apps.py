from django.apps import AppConfig


class AgencyConfig(AppConfig):
    name = "agency"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from core.crypto import encrypted_columns_register  # noqa: PLC0415 (app loading)

        from .models import Plan  # noqa: PLC0415 (app loading)

        encrypted_columns_register(Plan, "revealed_encrypted", label="agency_plans")
