"""What every writer of sales records shares: the error naming the member at fault, the upsert by external id, and the checks of a record's workspace."""

from __future__ import annotations

import re

from django.db import models

from ..models import (
    Workspace,
)


class RecordInvalid(Exception):
    """A record that cannot be written; ``field`` names the member at fault."""

    def __init__(self, field: str | None, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}" if field else message)


KEY = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def upsert(model, *, workspace: Workspace, external_id: str | None, values: dict):
    """Create the record, or update the one with this external id. Returns (obj, created)."""
    obj, created, _before = upsert_changes(
        model, workspace=workspace, external_id=external_id, values=values
    )
    return obj, created


def upsert_changes(model, *, workspace: Workspace, external_id: str | None, values: dict):
    """As upsert, and what the update changed: (obj, created, {attname: value before})."""
    obj = None
    if external_id is not None:
        # A unique lookup: no ordering needed (first() would add one).
        obj = next(
            iter(model.objects.filter(workspace=workspace, external_id=external_id)[:1]), None
        )
    if obj is None:
        obj = model.objects.create(workspace=workspace, external_id=external_id, **values)
        return obj, True, {}
    before = {}
    for name, value in values.items():
        model_field = model._meta.get_field(name)
        if model_field.is_relation:
            # Compare ids, so an update never loads the related rows.
            name = model_field.attname
            value = value.pk if isinstance(value, models.Model) else value
        if getattr(obj, name) != value:
            before[name] = getattr(obj, name)
            setattr(obj, name, value)
    if before:
        obj.save(update_fields=list(before))
    return obj, False, before


def refresh_or_collect(keys: set, touched: set | None, refresh) -> None:
    """Refresh the values kept for these keys now, or add them to the caller's `touched`
    set (the import refreshes once, at the end)."""
    keys = keys - {None}
    if touched is None:
        refresh(keys)
    else:
        touched |= keys


def same_workspace(workspace: Workspace, field: str, *objs) -> None:
    for obj in objs:
        if obj is not None and obj.workspace_id != workspace.pk:
            raise RecordInvalid(field, "That record belongs to another workspace.")
