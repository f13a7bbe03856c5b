"""Encrypt the stored secrets again with the first key of FIELD_ENCRYPTION_KEY."""

from django.core.management.base import BaseCommand

from audit.services import Actor
from tokens.services import field_encryption_rotate

ROTATE_ACTOR = Actor(
    kind="command", id="rotate_field_encryption", label="manage.py rotate_field_encryption"
)


class Command(BaseCommand):
    help = (
        "After putting a new key first in FIELD_ENCRYPTION_KEY, encrypt every stored secret "
        "with it; then the old keys can be removed."
    )

    def handle(self, *args, **options):
        counts = field_encryption_rotate(actor=ROTATE_ACTOR)
        self.stdout.write(
            f"Encrypted again with the first key: {counts.get('integration_connections', 0)} "
            f"integration credentials, {counts.get('idempotency_keys', 0)} stored answers, "
            f"{counts.get('agency_plans', 0)} plan results waiting to be shown, "
            f"{counts.get('webhook_endpoints', 0)} webhook signing secrets, "
            f"{counts.get('notification_settings', 0)} Slack addresses."
        )
