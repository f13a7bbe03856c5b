"""What every provider module gives, and what applying one event can end in.

A provider is a package under ``integrations`` (``stripe``, ``calendly``, ...) whose
``__init__`` exposes ``PROVIDER``, an instance of :class:`Provider`. The webhook view
verifies a delivery with ``verify``, names it with ``describe``, stores it once, and the
worker applies it with ``apply``; the backfill yields the same kind of items through
``backfill``, so a record made by either path is the same record.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from .models import Connection, Event


class SignatureRefused(Exception):
    """A delivery whose signature is missing, wrong or outside the timestamp tolerance."""

    def __init__(self, message: str, *, stale: bool = False):
        super().__init__(message)
        self.message = message
        self.stale = stale


# A signature's timestamp as the providers write it: seconds or milliseconds since the
# epoch, plain ASCII digits (13 reach the year 2286 in milliseconds).
_SIGNED_TIME = re.compile(r"[0-9]{1,13}")


def signed_time(text: str | None, name: str) -> int:
    """The timestamp a signature is made with, read only when it is 1 to 13 ASCII digits:
    a sign, a space, an underscore, a fraction or an exponent (which Python's int() and
    float() would take) make the signature unreadable, so no check of its time is skipped."""
    if text is None or not _SIGNED_TIME.fullmatch(text):
        raise SignatureRefused(f"The {name} is not a time: 1 to 13 digits are expected.")
    return int(text)


# What kind of trouble a failed call to a provider is: the engine says it in words and
# decides on a retry from the kind alone, never from the message's words.
REFUSED = "refused"  # the credential or its access was refused: a person must act
UNREACHABLE = "unreachable"  # no answer (network, DNS, time-out, a 5xx): tried again later
LIMITED = "limited"  # the provider asked us to slow down (429, a rate-limit code): later
UNEXPECTED = "unexpected"  # an answer we could not use
FAILURE_KINDS = (REFUSED, UNREACHABLE, LIMITED, UNEXPECTED)


class ProviderError(Exception):
    """A call to the provider's API failed; the connection becomes failing with its kind.

    Raise one of the typed subclasses (ProviderRefused, ProviderUnreachable,
    ProviderLimited); a bare ProviderError is an answer the service could not use.
    ``message`` may hold the provider's or its library's own text, which may echo a
    credential: it is written to the worker's log only, redacted, and never stored nor
    answered (the connection keeps integrations.failures.failure_summary). ``words``, when
    given, is a sentence of ours kept and shown as it is, for a refusal whose reason the
    kind alone does not say (an ad account in another currency)."""

    kind: str = UNEXPECTED

    def __init__(self, message: str, *, words: str = "", kind: str = ""):
        super().__init__(message)
        self.message = message
        self.words = words
        if kind:
            # A client whose one error class covers several kinds (by HTTP status).
            self.kind = kind


class ProviderRefused(ProviderError):
    kind = REFUSED


class ProviderUnreachable(ProviderError):
    kind = UNREACHABLE


class ProviderLimited(ProviderError):
    kind = LIMITED


@dataclass(frozen=True)
class Pull:
    """A provider the service reads on a schedule (ad platforms): ``first_days`` on
    connect, then the last ``again_days`` every ``every`` (platforms revise recent days),
    resuming at the cursor kept on the connection."""

    first_days: int = 90
    again_days: int = 7
    every: timedelta = timedelta(days=1)


@dataclass(frozen=True)
class CredentialField:
    name: str
    label: str
    hint: str
    pattern: str
    secret: bool = True
    required: bool = True
    # Asked for after the webhook URL is shown (the provider signs with it).
    after_webhook_url: bool = False
    # The secret that signs the provider's webhooks: stored apart from the other fields
    # (Connection.signing_secret_encrypted). When optional and not given, the service
    # generates one (and the provider registers its webhook with it).
    signs_webhooks: bool = False
    # A prefix the provider's own pages may leave out (Meta's `act_`, which Ads Manager
    # does not show): a value given without it, in any case, is stored with it.
    prefix: str = ""

    def normalised(self, value: str) -> str:
        if not self.prefix:
            return value
        if value.lower().startswith(self.prefix.lower()):
            return self.prefix + value[len(self.prefix) :]
        return self.prefix + value


@dataclass(frozen=True)
class Described:
    """A verified delivery's identity: stored once per (connection, event_id)."""

    event_id: str
    event_type: str
    occurred_at: datetime | None
    # The provider's id of the object the event is about (a charge's ch_…), so a later
    # snapshot of the same object can be told from an earlier one.
    object_id: str = ""


@dataclass(frozen=True)
class Applied:
    """The event made or changed these records, named by their provider ids (ch_…, re_…):
    they go in the audit event's detail, and events held waiting for one of them are
    applied again."""

    records: tuple[str, ...] = ()


@dataclass(frozen=True)
class Held:
    """The event cannot be placed yet; ``code`` is no_lead, no_sale, currency or waiting."""

    code: str
    reason: str
    # For ``waiting``: the provider id of the record it waits for, so that record's
    # arrival applies it again.
    waits_for: str = ""


@dataclass(frozen=True)
class Ignored:
    """A type the service does not map: stored, not applied."""

    reason: str = ""


Outcome = Applied | Held | Ignored


@dataclass(frozen=True)
class BackfillItem:
    """One object read from the provider's API, shaped like the webhook it stands for."""

    described: Described
    payload: dict


@dataclass
class BackfillPage:
    items: list[BackfillItem] = field(default_factory=list)
    # For a provider that places no events: the records read, written by its ``write``
    # hook (ad spend rows keyed on their own ids).
    records: list[dict] = field(default_factory=list)
    # Where the next page starts (stored on the connection so a restart resumes);
    # None when this resource is read to its end.
    cursor: dict | None = None


@dataclass(frozen=True)
class SettingsPage:
    """A page of the provider's own, linked beside each of its live connections on the
    Integrations page. Its URL takes the workspace id, then (``per_connection``) the
    connection id; ``roles`` are the member roles shown the link (None: everyone who sees
    the Integrations page). The page checks its own access: the link only hides it."""

    label: str
    url_name: str
    per_connection: bool = False
    roles: frozenset[str] | None = None


@dataclass(frozen=True)
class OptionsPage:
    """A provider's options of one connection, edited on a page the engine serves at
    ``settings/<workspace id>/integrations/<connection id>/<provider key>/`` and saved
    through ``integrations.connections.connection_change`` (audited
    ``integration.options_changed``).

    ``form`` is a Django form class built as ``form(data, connection=connection)``; its
    ``options()`` gives the options to keep once valid, and ``initial_for(connection)``
    (a class method) what the form shows. ``roles`` may open it."""

    label: str
    form: type
    template: str
    roles: frozenset[str]
    saved: str = "Saved."


@dataclass(frozen=True)
class EventSummary:
    """What a held event's payload says, as far as a page can tell."""

    amount: str = ""
    email: str = ""
    description: str = ""


class Provider(ABC):
    """What a provider gives the engine. Every hook is declared here: the required ones
    as abstract methods, the optional ones as attributes that are None for a provider
    without them (the engine asks ``provider.split is not None``, never probes).

    A package's ``mapping`` module writes an event (``event_map``) and its ``backfill``
    module reads the last 90 days (``pages``): a provider class names the two modules and
    adds its verify and describe.
    """

    key: ClassVar[str]
    name: ClassVar[str]
    feeds: ClassVar[str]
    credential_fields: ClassVar[tuple[CredentialField, ...]]

    # What the provider can do, which the engine reads instead of assuming:
    # - receives_webhooks: it sends signed deliveries to /hooks/<key>/<connection id>
    #   (the pages show the webhook URL, a credential field signs them); without it the
    #   endpoint answers 404 and no URL is shown;
    # - pull: it is read on a schedule with a cursor (Pull); None: read once, the last 90
    #   days, when connected;
    # - places_events: what it sends is stored as events and placed on records (applied,
    #   held with why, assigned or dismissed by a person); without it its pages of records
    #   are written by its ``write`` hook and nothing is held.
    receives_webhooks: ClassVar[bool] = True
    pull: ClassVar[Pull | None] = None
    places_events: ClassVar[bool] = True
    # What a person does when the provider refuses the credential, after "…refused the
    # key: " (a page says it; "connect it again with a new credential" when empty).
    refused_step: ClassVar[str] = ""
    # The connection's options a person edits (None: none).
    options_page: ClassVar[OptionsPage | None] = None
    # Where to find the credential, and where to paste the webhook URL at the provider.
    credentials_help: ClassVar[str] = ""
    webhook_help: ClassVar[str] = ""
    mapping_module: ClassVar = None
    backfill_module: ClassVar = None
    # A provider that signs the request's method and URL too: ``verify`` is then also
    # given ``method`` and ``url`` (the URL as the provider called it).
    verify_with_request: ClassVar[bool] = False

    # The provider's own settings pages: their routes (Django path() entries, mounted at
    # the site's root by integrations.urls) and the links the Integrations page shows.
    urlpatterns: ClassVar[tuple] = ()
    settings_pages: ClassVar[tuple[SettingsPage, ...]] = ()

    # Optional hooks (None: the provider has none).
    # split(payload) -> list[dict] | None: a provider that sends several events in one
    # delivery (HubSpot's JSON array); each is described and stored on its own, None
    # refuses the body. Without it a delivery is one JSON object.
    split: Callable[[object], list[dict] | None] | None = None
    # challenge(payload, secret) -> dict | None: a provider that checks its endpoint with a
    # signed challenge (Zoom's URL validation); the view answers 200 with the dict it
    # returns and stores nothing. None means the delivery is an ordinary event.
    challenge: Callable[[dict, str], dict | None] | None = None
    # on_connect(*, connection, credentials, signing_secret) -> dict: runs once before the
    # backfill (Calendly subscribes to its webhooks); what it returns is kept in the
    # connection's options, and a ProviderError makes the connection failing.
    on_connect: Callable[..., dict] | None = None
    # apply_many(*, events, connection) -> dict[int, Outcome]: the worker's fast path.
    # Given a batch of received events (oldest first), it applies set-based the ones it
    # can (events about an object no other stored event names), writing through the
    # workspace's writers, and returns their outcomes by event id; the rest are applied
    # one by one. A RecordInvalid it raises undoes its writes, and every event goes one
    # by one.
    apply_many: Callable[..., dict] | None = None
    # summary(event) -> EventSummary: what a held event's payload says, for the
    # Integrations page (Stripe: the charge's amount and email).
    summary: Callable[[Event], EventSummary] | None = None
    # write(*, connection, records) -> int: a provider that places no events writes a
    # page's records through the workspace's writers (inside the engine's transaction,
    # which records the audit event) and returns how many it wrote.
    write: Callable[..., int] | None = None
    # options_changed(*, connection, before, after) -> dict: runs inside the transaction
    # that keeps the options (an ad connection re-maps its stored spend); what it returns
    # goes in the audit event's detail.
    options_changed: Callable[..., dict] | None = None

    @abstractmethod
    def verify(self, *, body: bytes, headers: Mapping[str, str], secret: str, **request) -> None:
        """Raise SignatureRefused unless the delivery is signed with ``secret`` in time.
        (A provider that receives no webhooks refuses every delivery.)"""

    @abstractmethod
    def describe(self, payload: dict) -> Described:
        """The event's id, type, time and object, read from its payload."""

    def apply(self, *, event: Event, connection: Connection, credentials: dict) -> Outcome:
        """Write the records the event stands for through the workspace's writers, inside
        the caller's transaction (which records the audit event). ``credentials`` are the
        connection's, for a mapping that reads the provider's API."""
        return self.mapping_module.event_map(event=event, connection=connection)

    def backfill(
        self, *, connection: Connection, credentials: dict, cursor: dict | None
    ) -> Iterator[BackfillPage]:
        """Read the last 90 days page by page, starting at ``cursor`` (a pulled provider:
        the window its cursor names, ``{"since", "until"}`` ISO days, or its first days
        when there is none)."""
        return self.backfill_module.pages(
            connection=connection, credentials=credentials, cursor=cursor
        )


class PulledProvider(Provider):
    """A provider the service only reads, on a schedule (an ad platform): no webhooks,
    no events placed; its pages of records are written by its ``write`` hook."""

    receives_webhooks = False
    places_events = False
    pull = Pull()

    def verify(self, *, body: bytes, headers: Mapping[str, str], secret: str, **request) -> None:
        raise SignatureRefused(f"{self.name} sends no webhooks.")

    def describe(self, payload: dict) -> Described:
        return Described(event_id="", event_type="", occurred_at=None)
