"""The events integrators receive: one row per event, written in the transaction of the
write that caused it (events.services.event_record)."""

import secrets
import time

from django.db import models
from django.db.models import Q

from core.times import utc_iso

# Crockford's base 32, as ULIDs spell it.
_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def event_id_new() -> str:
    """`evt_` and a ULID: 48 bits of milliseconds then 80 random bits, 26 characters."""
    value = (int(time.time() * 1000) << 80) | secrets.randbits(80)
    chars = []
    for _ in range(26):
        chars.append(_ALPHABET[value & 31])
        value >>= 5
    return "evt_" + "".join(reversed(chars))


class Event(models.Model):
    # The feed's order and cursor: the order in which events were recorded.
    seq = models.BigAutoField(primary_key=True)
    id = models.CharField(max_length=30, unique=True, default=event_id_new, editable=False)
    workspace = models.ForeignKey(
        "workspaces.Workspace", on_delete=models.CASCADE, related_name="events"
    )
    type = models.CharField(max_length=40)
    created_at = models.DateTimeField()
    data = models.JSONField()
    # False until the webhook endpoints that want it have their deliveries (recorded True
    # when none wanted it); the beat finds the events whose hand-over was lost.
    dispatched = models.BooleanField(default=True)

    class Meta:
        indexes = [
            models.Index(fields=["workspace", "seq"], name="event_workspace_seq"),
            models.Index(fields=["created_at"], name="event_created_at"),
            models.Index(fields=["seq"], condition=Q(dispatched=False), name="event_undispatched"),
        ]

    def __str__(self):
        return f"{self.id} {self.type}"

    def as_api(self) -> dict:
        """The event as the feed lists it and a delivery's body carries it."""
        return {
            "id": self.id,
            "type": self.type,
            "timestamp": utc_iso(self.created_at),
            "workspace_id": str(self.workspace_id),
            "data": self.data,
        }
