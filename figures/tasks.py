"""The beat's round of the figures' daily roll-ups (figures/rollups.py)."""

from celery import shared_task

from . import rollups


@shared_task(name="figures.rollups_refresh")
def rollups_refresh() -> dict:
    return rollups.rollups_refresh()
