from django.apps import AppConfig


class TokensConfig(AppConfig):
    name = "tokens"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from corsheaders.signals import check_request_enabled

        from . import schema  # noqa: F401  registers the OpenAPI authentication extension
        from .cors import cors_allow_listed_origins

        check_request_enabled.connect(cors_allow_listed_origins, dispatch_uid="embedded-origins")
