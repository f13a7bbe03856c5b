"""What every log line carries besides its message: the request id.

The id is django-guid's: taken from the request's `X-Request-ID` (when it is a UUID) or
made, answered in `X-Request-ID`, and carried in the headers of every Celery task the
request sends, so a task's lines carry the id of the request that sent it. With
LOG_FORMAT=json each line is one JSON object (python-json-logger), with the fields of
core.observe's request line where the record has them.
"""

import logging

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
