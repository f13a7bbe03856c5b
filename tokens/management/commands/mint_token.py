"""Mint a workspace (svc_) or agency (agy_) token and print it once."""

from django.core.management.base import BaseCommand, CommandError

from audit.services import Actor
from core.errors import ApiError
from core.ids import parse_uuid
from tokens.services import token_mint
from workspaces.models import Agency, Workspace

MINT_ACTOR = Actor(kind="command", id="mint_token", label="manage.py mint_token")


class Command(BaseCommand):
    help = (
        "Mint a token and print it on stdout, once: it is stored only as a digest. "
        "Workspace scopes: read, data:write. Agency scopes: read, config:plan, "
        "config:apply, connect:links."
    )

    def add_arguments(self, parser):
        owner = parser.add_mutually_exclusive_group(required=True)
        owner.add_argument("--workspace", help="The workspace id: mints an svc_ token.")
        owner.add_argument("--agency", help="The agency id: mints an agy_ token.")
        parser.add_argument(
            "--scope", action="append", required=True, dest="scopes", help="Repeat for each scope."
        )
        parser.add_argument("--name", default="Minted on the command line")

    def handle(self, *args, workspace, agency, scopes, name, **options):
        owner = {}
        if workspace is not None:
            owner["workspace"] = _get(Workspace.active, workspace, "workspace")
        else:
            owner["agency"] = _get(Agency.objects, agency, "agency")
        try:
            minted = token_mint(actor=MINT_ACTOR, name=name, scopes=scopes, **owner)
        except ApiError as error:
            raise CommandError(error.message) from None
        self.stdout.write(minted.plaintext)


def _get(manager, value: str, what: str):
    pk = parse_uuid(value)
    obj = manager.filter(pk=pk).first() if pk is not None else None
    if obj is None:
        raise CommandError(f"No {what} has the id {value!r}.")
    return obj
