"""Count the daily roll-ups of one workspace, or of all, from their records (figures/rollups.py).

    manage.py rollups_build --workspace <id>
    manage.py rollups_build --all

The beat builds a few missing ones a round; this is for a bulk load or a restore, where
waiting for the beat would leave the figures reading the records meanwhile.
"""

import time

from django.core.management.base import BaseCommand, CommandError

from figures.rollups import rollups_build
from workspaces.models import Workspace


class Command(BaseCommand):
    help = "Count the figures' daily roll-ups of a workspace (or all) from their records."

    def add_arguments(self, parser):
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--workspace", help="the workspace's id")
        which.add_argument("--all", action="store_true", help="every workspace")

    def handle(self, *args, workspace=None, all=False, **options):
        if all:
            workspaces = Workspace.objects.order_by("pk")
        else:
            workspaces = Workspace.objects.filter(pk=workspace)
            if not workspaces.exists():
                raise CommandError(f"No workspace {workspace}.")
        for ws in workspaces.iterator():
            began = time.monotonic()
            rows = rollups_build(ws)
            self.stdout.write(
                f"{ws.pk} {ws.name}: {rows} roll-up rows in {time.monotonic() - began:.1f} s"
            )
