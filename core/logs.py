"""What every log line carries besides its message: the request id.

The id is django-guid's: taken from the request's `X-Request-ID` (when it is a UUID) or
made, answered in `X-Request-ID`, and carried in the headers of every Celery task the
request sends, so a task's lines carry the id of the request that sent it. A header that
is not a UUID in one of its two plain spellings is dropped before django-guid reads it
(`RequestIdHeader`), with one fixed line: what a client sent is never written to the log.
With LOG_FORMAT=json each line is one JSON object (python-json-logger), with the fields of
core.observe's request line where the record has them.

What no line may show: the one-use tokens carried in paths (a connect link's secret, an
invitation's and a password reset's tokens) and the credentials a provider's library may
write into a message (`access_token=`, `client_secret`, `refresh_token`, an
`Authorization` header). `redact` rewrites them wherever they are;
config/log_filters.py applies it to each record's message and traceback before any
handler, and the JSON formatter to every string it writes (the message, a record's extra
fields at any depth, such as the task arguments and results Celery attaches, their keys
included), so no field escapes it.
"""

import logging
import re

from django_guid.context import guid
from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonEncoder, JsonFormatter

# Matched in any case: a path is routed case-sensitively, but a log line must never show a
# secret whatever case a client typed it in.
#
# Redacted by the route's shape: a route's one-use value is the segment after its marker
# (`/invite/<token>`, `/connect/<secret>`, `/accounts/reset/<uid>/<token>/`), wherever a
# doubled, dotted, quoted or percent-encoded separator puts it (`/invite//<t>`,
# `/invite/./<t>`, `/invite/"<t>`, `/accounts/reset/MQ//<t>/`): the separators after a
# marker are skipped, then the value is redacted.
_SEPARATOR = r"""(?:[/.\\"']|%2[2ef]|%27|%5c)"""
_VALUE = r"""[^/\s?#"'<>\\%]++(?:%(?!2[2ef]|27|5c)[^/\s?#"'<>\\%]*+)*+"""
SECRET_IN_PATH = re.compile(
    rf"(/(?:connect|invite)/{_SEPARATOR}*+|/accounts/reset/{_SEPARATOR}*+{_VALUE}{_SEPARATOR}++)"
    rf"{_VALUE}",
    re.IGNORECASE,
)
REDACTED = r"\1[redacted]"
MARKERS = ("/connect/", "/invite/", "/accounts/reset/")


def carries_secret(text: str) -> bool:
    lowered = text.lower()
    return any(marker in lowered for marker in MARKERS)


# Credentials a provider's library may write into its message (a query string's
# access_token, a token request's form or JSON echoed back, an Authorization header), in any
# case and in the spellings a URL, a form, JSON or a header gives them.
CREDENTIAL_NAMES = ("access_token", "client_secret", "refresh_token", "authorization")
CREDENTIAL_IN_TEXT = re.compile(
    r"""((?:access_token|client_secret|refresh_token|authorization)"""
    r"""["']?\s*[=:]\s*["']?(?:(?:bearer|basic|token)\s+)?)[^\s&"',;}<>]+""",
    re.IGNORECASE,
)
CREDENTIAL_REDACTED = r"\1[redacted]"


def redact(text: str) -> str:
    """The text without the one-use tokens of paths and the credentials named in it. Every
    log line passes here: the text is lowered once, and a regular expression runs only when
    a marker or a credential's name is in it."""
    lowered = text.lower()
    if any(marker in lowered for marker in MARKERS):
        text = SECRET_IN_PATH.sub(REDACTED, text)
    if any(name in lowered for name in CREDENTIAL_NAMES):
        text = CREDENTIAL_IN_TEXT.sub(CREDENTIAL_REDACTED, text)
    return text


# A value shorter than this is not looked for: it would match ordinary words.
SECRET_VALUE_MIN = 6


def redact_values(text: str, values) -> str:
    """The text with each of `values` (the credentials a connection holds) replaced, then
    redacted as every log line is."""
    for value in sorted({v for v in values if isinstance(v, str)}, key=len, reverse=True):
        if len(value) >= SECRET_VALUE_MIN:
            text = text.replace(value, "[redacted]")
    return redact(text)


# The record attributes a JSON line keeps, renamed as operators read them.
JSON_FIELDS = "{asctime}{levelname}{name}{message}{request_id}"
RENAMED = {"asctime": "time", "levelname": "level", "name": "logger"}
# Never written: Django's request loggers attach the request itself, whose text holds the
# path, and a path can hold a secret (a connect link's); the message says what is needed,
# redacted (config/log_filters.py).
NOT_WRITTEN = (*RESERVED_ATTRS, "request", "color_message")

# A request id a client may give: a UUID as 8-4-4-4-12 hexadecimal digits, or the 32 digits
# alone (as the service makes them). Anything longer or else is not taken, nor written.
REQUEST_ID = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32}", re.IGNORECASE
)
REQUEST_ID_REFUSED = "X-Request-ID is not a UUID: the request was given a new id."

logger = logging.getLogger(__name__)


class RequestIdHeader:
    """Before django-guid's middleware: an `X-Request-ID` that is not a UUID is removed
    from the request, so django-guid makes a new id (and logs nothing of the header), and
    one fixed sentence is logged in place of django-guid's warning, which quotes the header
    whatever its length. (django-guid would also keep a "valid" value padded with braces,
    dashes and `urn:uuid:` prefixes to any length, and write it on every line.)"""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        given = request.META.get("HTTP_X_REQUEST_ID")
        if given and not REQUEST_ID.fullmatch(given):
            del request.META["HTTP_X_REQUEST_ID"]
            request.__dict__.pop("headers", None)
            logger.warning(REQUEST_ID_REFUSED)
        return self.get_response(request)


class RequestId(logging.Filter):
    def filter(self, record):
        record.request_id = guid.get() or ""
        return True


# Tasks whose arguments no line may show (a mail's, which carry its links and addresses).
# They are sent with this in their place (core.tasks.ArgumentsHidden), which Celery's
# worker writes instead of them; a task run in the web process (no broker) is traced
# without that, so `TaskArguments` puts it in Celery's lines there.
HIDDEN_ARGUMENTS = "<hidden>"
TASKS_WITH_HIDDEN_ARGUMENTS = frozenset({"core.mail_deliver", "accounts.password_reset_send"})


class TaskArguments(logging.Filter):
    """Celery's lines of a task (received, succeeded, failed) carry its arguments, in the
    message's arguments and in the record's `data`: hidden for the tasks that hide them."""

    def filter(self, record: logging.LogRecord) -> bool:
        context = getattr(record, "data", None)
        if (
            isinstance(context, dict)
            and context.get("name") in TASKS_WITH_HIDDEN_ARGUMENTS
            and ("args" in context or "kwargs" in context)
        ):
            hidden = {**context, "args": HIDDEN_ARGUMENTS, "kwargs": HIDDEN_ARGUMENTS}
            record.data = hidden
            if record.args is context:
                record.args = hidden
        return True


_PLAIN = (int, float, bool, type(None))


class RedactingJsonFormatter(JsonFormatter):
    """python-json-logger's formatter, with every string of the line redacted: what it
    would write for any other value (an object's text, a dataclass's fields) is taken
    first, then redacted like the rest."""

    _encoder = JsonEncoder()

    def _redacted(self, value, depth: int = 0):
        if isinstance(value, str):
            return redact(value)
        if isinstance(value, _PLAIN):
            return value
        if depth > 20:
            return "[too deep]"
        if isinstance(value, dict):
            return {
                self._redacted(str(key)): self._redacted(item, depth + 1)
                for key, item in value.items()
            }
        if isinstance(value, list | tuple | set | frozenset):
            return [self._redacted(item, depth + 1) for item in value]
        return self._redacted(self._encoder.default(value), depth + 1)

    def process_log_record(self, log_data):
        return self._redacted(super().process_log_record(log_data))


def json_formatter() -> JsonFormatter:
    return RedactingJsonFormatter(
        JSON_FIELDS,
        style="{",
        rename_fields=RENAMED,
        datefmt="%Y-%m-%dT%H:%M:%S%z",
        reserved_attrs=NOT_WRITTEN,
    )
