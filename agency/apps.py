from django.apps import AppConfig


class AgencyConfig(AppConfig):
    name = "agency"
    default_auto_field = "django.db.models.BigAutoField"
