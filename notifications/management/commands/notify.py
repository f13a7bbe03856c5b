"""`manage.py notify --at <ISO instant>`: the notifications round as if it were that instant,
for every workspace, here and now (an operator catching up after an outage; the tests).
Whatever was already sent for a period is not sent again: the claims hold."""

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from core.times import InstantInvalid, instant_parse
from notifications.rounds import round_run


class Command(BaseCommand):
    help = "Run the notifications round as of an instant (default: now), once-only as ever."

    def add_arguments(self, parser):
        parser.add_argument(
            "--at", help="ISO 8601 instant with its offset, e.g. 2026-03-09T13:05:00Z"
        )

    def handle(self, *args, **options):
        at = timezone.now()
        if options["at"]:
            try:
                at = instant_parse(options["at"])
            except InstantInvalid as refused:
                raise CommandError(f"--at: {refused}") from None
        done = round_run(now=at, every=True, inline=True)
        sent = ", ".join(f"{kind} {count}" for kind, count in sorted(done["sent"].items()))
        self.stdout.write(
            f"Round as of {at.isoformat()}: {done['workspaces']} workspaces; sent: {sent or 'nothing'}"
        )
