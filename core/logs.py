"""What every log line carries besides its message: the request id.

The id is django-guid's: taken from the request's `X-Request-ID` (when it is a UUID) or
made, answered in `X-Request-ID`, and carried in the headers of every Celery task the
request sends, so a task's lines carry the id of the request that sent it. A header that
is not a UUID in one of its two plain spellings is dropped before django-guid reads it
(`RequestIdHeader`), with one fixed line: what a client sent is never written to the log.
With LOG_FORMAT=json each line is one JSON object (python-json-logger), with the fields of
core.observe's request line where the record has them.
"""

import logging
import re

from django_guid.context import guid
from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter

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


def json_formatter() -> JsonFormatter:
    return JsonFormatter(
        JSON_FIELDS,
        style="{",
        rename_fields=RENAMED,
        datefmt="%Y-%m-%dT%H:%M:%S%z",
        reserved_attrs=NOT_WRITTEN,
    )
