from django.core.management.base import BaseCommand

from figures.docs import DOC_PATH, metrics_markdown


class Command(BaseCommand):
    help = "Write docs/metrics.md from the metric registry."

    def handle(self, *args, **options):
        DOC_PATH.parent.mkdir(parents=True, exist_ok=True)
        DOC_PATH.write_text(metrics_markdown(), encoding="utf-8")
        self.stdout.write(f"Wrote {DOC_PATH}")
