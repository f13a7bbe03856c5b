"""A failing connection's trouble said in a sentence, with the next step.

A provider call that fails raises a typed ProviderError (integrations.base): its kind is
kept on the connection (Connection.last_error_kind) beside a summary in the service's own
words (last_error, `failure_summary`). The provider's own message, or its HTTP library's,
is never stored nor answered: it may echo a credential (a URL's `access_token`, a token
request's form), so it is written to the worker's log only, with every credential the
connection holds redacted. A page shows,
from the kind, what the trouble is and what to do: a refused credential needs a new one
pasted (nothing else will mend it), a provider that could not be reached or that asked us
to slow down is tried again by the beat schedule RETRY_AFTER after the failure (and an
owner or admin may press Retry at once).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from core.display import clock_text, day_text, moment_text

from .base import FAILURE_KINDS, LIMITED, REFUSED, UNEXPECTED, UNREACHABLE

# How long after an unreachable or rate-limited failure the beat schedule tries again.
RETRY_AFTER = timedelta(minutes=15)
RETRIED_KINDS = frozenset({UNREACHABLE, LIMITED})
# What a person does when a provider without its own step refuses the credential.
NEW_CREDENTIAL = "connect it again with a new credential"


def failure_summary(*, kind: str, name: str, words: str = "") -> str:
    """A failure as the service keeps and tells it (on the connection, in the audit log, in
    the `integration.failing` event): the kind in our own words, or the sentence of ours
    the error carried; never the provider's or its library's text, which may echo a
    credential (that text goes to the worker's log only, redacted)."""
    if words:
        return words
    return {
        REFUSED: f"{name} refused the credential.",
        UNREACHABLE: f"{name} could not be reached.",
        LIMITED: f"{name} asked us to slow down.",
    }.get(kind, f"{name} answered in a way we could not use.")


def failure_kind(connection) -> str:
    """The kind of the connection's last failure, as its error's type said."""
    kind = getattr(connection, "last_error_kind", "") or UNEXPECTED
    return kind if kind in FAILURE_KINDS else UNEXPECTED


@dataclass(frozen=True)
class Failure:
    kind: str
    # The sentence before the moment of the next try, which the page writes in the
    # workspace's time zone after it ("we will retry at" 14:05).
    sentence: str
    retry_at: datetime | None


def connection_failure(
    *, kind: str, name: str, failed_at, step: str = "", words: str = ""
) -> Failure:
    """What went wrong with a failing connection, in words, and when it is tried again:
    from the failure's kind (and a sentence of ours the error carried), never from the
    provider's own message."""
    retry_at = failed_at + RETRY_AFTER if kind in RETRIED_KINDS and failed_at else None
    if kind == REFUSED and words:
        sentence = words
    elif kind == REFUSED:
        sentence = f"{name} refused the key: {step or NEW_CREDENTIAL}."
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


def connection_state_words(connection, *, name: str, step: str = "") -> StateWords:
    """The one place a connection's state is put in words (None: not connected). Times
    are written in the zone and locale the page activated. ``step``: what a person does
    when the provider refuses the credential (the provider's ``refused_step``)."""
    if connection is None:
        return StateWords("not_connected", "Not connected", f"{name} is not connected yet.")
    if connection.state == "failing":
        failure = connection_failure(
            kind=failure_kind(connection),
            name=name,
            failed_at=connection.last_error_at,
            step=step,
            words=connection.last_error_words,
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
