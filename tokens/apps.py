from django.apps import AppConfig


class TokensConfig(AppConfig):
    name = "tokens"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # What touches models or the DRF settings loads once the app registry is ready.
        from corsheaders.signals import check_request_enabled  # noqa: PLC0415

        from . import schema  # noqa: F401, PLC0415 (registers the OpenAPI authentication extension)
        from .cors import cors_allow_listed_origins  # noqa: PLC0415

        check_request_enabled.connect(cors_allow_listed_origins, dispatch_uid="embedded-origins")

        from django.contrib.auth import get_user_model  # noqa: PLC0415
        from django.db.models.signals import pre_save  # noqa: PLC0415

        from .signin import account_email_normalise  # noqa: PLC0415

        # Every account's email in the one form sign-in finds it by, however it was made
        # (a plan, an invitation, the admin, createsuperuser).
        pre_save.connect(
            account_email_normalise, sender=get_user_model(), dispatch_uid="account-email"
        )
