from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """People: signing in, their accounts, invitations and the team pages. Accounts and
    memberships are written by workspaces.tenancy; this app holds their pages."""

    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.contrib.auth import get_user_model  # noqa: PLC0415
        from django.db.models.signals import pre_save  # noqa: PLC0415

        from .signin import account_email_normalise  # noqa: PLC0415

        # Every account's email in the one form sign-in finds it by, however it was made
        # (a plan, an invitation, the admin, createsuperuser).
        pre_save.connect(
            account_email_normalise, sender=get_user_model(), dispatch_uid="account-email"
        )
