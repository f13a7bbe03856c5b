"""Revoke a workspace or agency token, given the token itself (or its id)."""

from django.core.management.base import BaseCommand, CommandError

from audit.services import Actor
from core.ids import parse_uuid
from tokens.models import TOKEN_PATTERN, ApiToken, token_digest
from tokens.services import token_revoke

REVOKE_ACTOR = Actor(kind="command", id="revoke_token", label="manage.py revoke_token")


class Command(BaseCommand):
    help = "Revoke a token: it answers 401 from now on."

    def add_arguments(self, parser):
        parser.add_argument("token", help="The token (svc_... or agy_...), or its id.")
        parser.add_argument("--reason", default="", help="Why, for the audit log.")

    def handle(self, *args, token, reason, **options):
        value = token.strip()
        found = None
        if TOKEN_PATTERN.match(value):
            found = ApiToken.objects.filter(digest=token_digest(value)).first()
        else:
            pk = parse_uuid(value)
            found = ApiToken.objects.filter(pk=pk).first() if pk is not None else None
        if found is None:
            raise CommandError("No token of this service matches.")
        if found.revoked_at is not None:
            self.stdout.write(f"{found.display} ({found.name}) was already revoked.")
            return
        token_revoke(actor=REVOKE_ACTOR, token=found, reason=reason)
        self.stdout.write(f"Revoked {found.display} ({found.name}).")
