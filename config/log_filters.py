"""Log filters: no secret carried in a path reaches a log line.

A connect link's secret is its path (`/connect/<secret>`), and so are an invitation's
(`/invite/<token>`) and a password reset's (`/accounts/reset/<uid>/<token>/`) one-use
tokens: Django's request logger writes
the path of every 4xx and 5xx ("Not Found: /connect/..."), its CSRF logger the path of a
refused form, and runserver the request line of every request. `RedactSecrets` rewrites
the message (and a traceback's text) of each record that passes it, before any handler
formats it.
"""

import logging

# The redaction itself is core's (core/logs.py): the JSON formatter applies it to every field.
from core.logs import REDACTED, SECRET_IN_PATH, carries_secret, redact

__all__ = ["REDACTED", "SECRET_IN_PATH", "RedactAccessLine", "RedactSecrets", "redact"]


class RedactSecrets(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if carries_secret(message):
            record.msg, record.args = redact(message), ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text and carries_secret(record.exc_text):
            record.exc_text = redact(record.exc_text)
        return True


class RedactAccessLine(logging.Filter):
    """uvicorn's request lines: its formatter reads the record's arguments (client, method,
    path, version, status), so the path is redacted among them, not in the message."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and any(
            isinstance(arg, str) and carries_secret(arg) for arg in record.args
        ):
            record.args = tuple(redact(arg) if isinstance(arg, str) else arg for arg in record.args)
        return True
