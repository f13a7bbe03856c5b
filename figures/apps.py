from django.apps import AppConfig


class FiguresConfig(AppConfig):
    name = "figures"
    default_auto_field = "django.db.models.BigAutoField"
