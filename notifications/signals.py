"""A new workspace gets its notification settings (the defaults) as it is created, so the
round finds it by its next due instant like any other."""

from django.db.models.signals import post_save
from django.dispatch import receiver

from workspaces.models import Workspace

from .services import settings_ensure


@receiver(post_save, sender=Workspace, dispatch_uid="notifications-settings-of-new-workspace")
def _settings_of_new_workspace(sender, instance, created, raw=False, **kwargs):
    if created and not raw:
        settings_ensure(instance)
