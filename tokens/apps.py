from django.apps import AppConfig


class TokensConfig(AppConfig):
    name = "tokens"
    default_auto_field = "django.db.models.BigAutoField"
