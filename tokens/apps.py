from django.apps import AppConfig


class TokensConfig(AppConfig):
    name = "tokens"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # What touches models or the DRF settings loads once the app registry is ready.
        from corsheaders.signals import check_request_enabled  # noqa: PLC0415

        from workspaces.tenancy import on_role_lowered  # noqa: PLC0415

        from . import schema  # noqa: F401, PLC0415 (registers the OpenAPI authentication extension)
        from .cors import cors_allow_listed_origins  # noqa: PLC0415
        from .services import member_role_lowered  # noqa: PLC0415

        check_request_enabled.connect(cors_allow_listed_origins, dispatch_uid="embedded-origins")
        # A member whose role may no longer mint tokens loses the ones they minted.
        on_role_lowered(member_role_lowered)
