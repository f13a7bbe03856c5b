from django.apps import AppConfig


class TokensConfig(AppConfig):
    name = "tokens"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import schema  # noqa: F401  registers the OpenAPI authentication extension
