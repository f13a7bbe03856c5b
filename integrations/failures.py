"""A failing connection's trouble said in a sentence, with the next step.

A provider call that fails leaves its message on the connection (Connection.last_error):
the provider's own words, or the HTTP library's. A page never shows that raw text; it
shows what kind of trouble it is and what to do: a refused credential needs a new one
pasted (nothing else will mend it), a provider that could not be reached or that asked us
to slow down is tried again by the beat schedule RETRY_AFTER after the failure (and an
owner or admin may press Retry at once).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from core.display import clock_text, day_text, moment_text

REFUSED = "refused"
UNREACHABLE = "unreachable"
LIMITED = "limited"
UNEXPECTED = "unexpected"

# How long after an unreachable or rate-limited failure the beat schedule tries again.
RETRY_AFTER = timedelta(minutes=15)
RETRIED_KINDS = frozenset({UNREACHABLE, LIMITED})

# What a person pastes again when a provider refuses the credential.
NEW_CREDENTIAL = {
    "stripe": "paste a new restricted key",
    "calendly": "paste a new personal access token",
    "zoom": "paste the app's account ID, client ID and client secret again",
    "hubspot": "paste a new private app access token",
}

_UNREACHABLE_SIGNS = (
    "could not be reached",
    "connectionpool",
    "nameresolution",
    "name or service not known",
    "max retries",
    "timed out",
    "timeout",
    "connection refused",
    "connection reset",
    "connection aborted",
    "temporary failure",
    "network",
)
_LIMITED_SIGNS = ("429", "too many requests", "rate limit")
_REFUSED_SIGNS = (
    "refused",
    "(401)",
    "(403)",
    "http 401",
    "http 403",
    "unauthorized",
    "forbidden",
    "invalid api key",
    "invalid_grant",
    "invalid token",
    "expired",
)


def failure_kind(error: str) -> str:
    text = (error or "").lower()
    if any(sign in text for sign in _UNREACHABLE_SIGNS):
        return UNREACHABLE
    if any(sign in text for sign in _LIMITED_SIGNS):
        return LIMITED
    if any(sign in text for sign in _REFUSED_SIGNS):
        return REFUSED
    return UNEXPECTED


@dataclass(frozen=True)
class Failure:
    kind: str
    # The sentence before the moment of the next try, which the page writes in the
    # workspace's time zone after it ("we will retry at" 14:05).
    sentence: str
    retry_at: datetime | None


def connection_failure(*, provider: str, name: str, error: str, failed_at) -> Failure:
    """What went wrong with a failing connection, in words, and when it is tried again."""
    kind = failure_kind(error)
    retry_at = failed_at + RETRY_AFTER if kind in RETRIED_KINDS and failed_at else None
    if kind == REFUSED:
        step = NEW_CREDENTIAL.get(provider, "connect it again with a new credential")
        sentence = f"{name} refused the key: {step}."
    elif kind == UNREACHABLE:
        sentence = f"{name} could not be reached; we will retry at"
    elif kind == LIMITED:
        sentence = f"{name} asked us to slow down; we will retry at"
    else:
        sentence = (
            f"{name} answered in a way we could not use; press Retry, and if it fails "
            f"again, disconnect {name} and connect it again."
        )
    return Failure(kind=kind, sentence=sentence, retry_at=retry_at)


@dataclass(frozen=True)
class StateWords:
    """A provider's connection state as every page says it: the Integrations page, the
    client's connect page and the agency console."""

    state: str  # connected, failing, disconnected or not_connected
    label: str
    sentence: str
    failure_kind: str | None = None


def connection_state_words(connection, *, name: str) -> StateWords:
    """The one place a connection's state is put in words (None: not connected). Times
    are written in the zone and locale the page activated."""
    if connection is None:
        return StateWords("not_connected", "Not connected", f"{name} is not connected yet.")
    if connection.state == "failing":
        failure = connection_failure(
            provider=connection.provider,
            name=name,
            error=connection.last_error,
            failed_at=connection.last_error_at,
        )
        sentence = failure.sentence
        if failure.retry_at is not None:
            same_day = day_text(failure.retry_at) == day_text(timezone.now())
            when = clock_text(failure.retry_at) if same_day else moment_text(failure.retry_at)
            sentence = f"{sentence} {when}."
        return StateWords("failing", "Failing", sentence, failure.kind)
    if connection.state == "disconnected":
        return StateWords(
            "disconnected", "Disconnected", f"{name} is disconnected: its webhooks are refused."
        )
    return StateWords("connected", "Connected", f"{name} is connected.")


def connection_made_by(created_by: str) -> str:
    """Who made a connection, in words: a connect link is not named by its id."""
    if created_by.startswith("connect link"):
        return "through a connect link"
    return f"by {created_by}" if created_by else ""
