"""No log line carries a connect link's secret: Django's request and CSRF loggers, the
development server's request lines, and tracebacks."""

import io
import json
import logging
from unittest import mock

import pytest
from django.conf import settings
from django.test import Client
from uvicorn.logging import AccessFormatter

import config.asgi  # installs the filters on uvicorn's loggers
import config.wsgi  # noqa: F401 - installs the filter on gunicorn's error logger
from agency.links import connect_link_create
from agency.services import user_actor
from config.log_filters import RedactSecrets
from core.logs import json_formatter

pytestmark = pytest.mark.django_db

UNKNOWN = "Zm9vYmFyLXVua25vd24tc2VjcmV0LXZhbHVlLTEyMzQ"


@pytest.fixture
def link_secret(agency_world, django_user_model):
    owner = django_user_model.objects.create_user("own", "own@northwind.test", "pw-123456789")
    _, url = connect_link_create(
        agency=agency_world.agency,
        workspace=agency_world.workspace,
        integrations=["stripe"],
        expires_in_hours=24,
        actor=user_actor(owner),
    )
    return url.rsplit("/", 1)[1]


def logged(caplog) -> str:
    lines = []
    for record in caplog.records:
        lines.append(record.getMessage())
        if record.exc_text:
            lines.append(record.exc_text)
    return "\n".join(lines)


def framework_lines(caplog) -> list[tuple[str, str]]:
    """Django's own lines; each request's own line (service.request) names its route's
    template, checked apart."""
    return [(r.name, r.getMessage()) for r in caplog.records if r.name != "service.request"]


def test_each_request_line_names_the_route_template_not_the_secret(caplog, link_secret):
    caplog.set_level(logging.INFO)
    Client().get(f"/connect/{link_secret}")
    [line] = [r for r in caplog.records if r.name == "service.request"]
    assert line.route == "/connect/<str:secret>"
    assert link_secret not in logged(caplog)


def test_a_404_on_an_unknown_link_logs_no_secret(caplog):
    caplog.set_level(logging.INFO)
    response = Client().get(f"/connect/{UNKNOWN}")
    assert response.status_code == 404
    assert framework_lines(caplog) == [("django.request", "Not Found: /connect/[redacted]")]
    assert UNKNOWN not in logged(caplog)


def test_a_400_on_a_real_link_logs_no_secret(caplog, link_secret):
    caplog.set_level(logging.INFO)
    client = Client()
    response = client.post(f"/connect/{link_secret}", {"integration": "stripe"})
    assert response.status_code == 400
    assert ("django.request", "Bad Request: /connect/[redacted]") in [
        (r.name, r.getMessage()) for r in caplog.records
    ]
    assert link_secret not in logged(caplog)


def test_a_refused_csrf_token_logs_no_secret(caplog, link_secret):
    caplog.set_level(logging.INFO)
    response = Client(enforce_csrf_checks=True).post(
        f"/connect/{link_secret}", {"integration": "stripe"}
    )
    assert response.status_code == 403
    assert framework_lines(caplog) == [
        (
            "django.security.csrf",
            "Forbidden (CSRF cookie not set.): /connect/[redacted]",
        )
    ]
    assert link_secret not in logged(caplog)


def test_a_405_logs_no_secret(caplog, link_secret):
    caplog.set_level(logging.INFO)
    assert Client().put(f"/connect/{link_secret}").status_code == 405
    assert framework_lines(caplog) == [
        ("django.request", "Method Not Allowed (PUT): /connect/[redacted]")
    ]


def test_a_server_error_logs_no_secret_in_the_message_or_the_traceback(caplog, link_secret):
    caplog.set_level(logging.INFO)
    client = Client(raise_request_exception=False)
    with mock.patch(
        "agency.pages.selectors.connect_link_by_secret",
        side_effect=RuntimeError(f"lookup failed for /connect/{link_secret}"),
    ):
        assert client.get(f"/connect/{link_secret}").status_code == 500
    record = next(r for r in caplog.records if r.name == "django.request")
    assert record.getMessage() == "Internal Server Error: /connect/[redacted]"
    assert "RuntimeError: lookup failed for /connect/[redacted]" in record.exc_text
    assert link_secret not in logged(caplog)


def test_the_development_servers_request_lines_log_no_secret(caplog):
    caplog.set_level(logging.INFO)
    # As django.core.servers.basehttp.WSGIRequestHandler.log_message writes them.
    logging.getLogger("django.server").info(
        '"%s" %s %s', f"GET /connect/{UNKNOWN}?integration=stripe HTTP/1.1", "200", "1234"
    )
    assert caplog.records[-1].getMessage() == (
        '"GET /connect/[redacted]?integration=stripe HTTP/1.1" 200 1234'
    )


def test_uvicorns_request_lines_log_no_secret():
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5555", "GET", f"/connect/{UNKNOWN}?integration=stripe", "1.1", 404),
        None,
    )
    assert logging.getLogger("uvicorn.access").filter(record)
    line = AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s').format(record)
    assert line == (
        '127.0.0.1:5555 - "GET /connect/[redacted]?integration=stripe HTTP/1.1" 404 Not Found'
    )


def test_gunicorns_error_lines_log_no_secret():
    # As gunicorn's sync worker writes a request that failed outside Django.
    record = logging.LogRecord(
        "gunicorn.error",
        logging.ERROR,
        __file__,
        1,
        "Error handling request %s",
        (f"/connect/{UNKNOWN}?integration=stripe",),
        None,
    )
    assert logging.getLogger("gunicorn.error").filter(record)
    assert record.getMessage() == "Error handling request /connect/[redacted]?integration=stripe"


def test_the_console_handler_redacts_what_any_logger_writes():
    handler = settings.LOGGING["handlers"]["console"]
    assert handler["filters"][0] == "redact_secrets"
    record = logging.LogRecord(
        "anything",
        logging.WARNING,
        __file__,
        1,
        "link %s",
        (f"https://x/connect/{UNKNOWN}/",),
        None,
    )
    assert RedactSecrets().filter(record) is True
    assert record.getMessage() == "link https://x/connect/[redacted]/"


@pytest.mark.parametrize(
    "path",
    [
        f"/CONNECT/{UNKNOWN}",
        f"/invite/{UNKNOWN}",
        f"/Invite/{UNKNOWN}",
        f"/accounts/reset/MQ/{UNKNOWN}/",
    ],
)
def test_every_one_use_token_in_a_path_is_redacted_in_any_case(caplog, path):
    with caplog.at_level(logging.INFO):
        Client(enforce_csrf_checks=True).post(path, {"x": "1"})
    assert caplog.records
    assert UNKNOWN not in logged(caplog)


def test_a_json_log_line_carries_no_secret(caplog):
    """LOG_FORMAT=json writes a record's own attributes too; Django's request logger
    attaches the request, whose text holds the path: it is never written."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(json_formatter())
    handler.addFilter(RedactSecrets())
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    try:
        assert Client().get(f"/connect/{UNKNOWN}").status_code == 404
    finally:
        logger.removeHandler(handler)
    [line] = stream.getvalue().splitlines()
    assert json.loads(line)["message"] == "Not Found: /connect/[redacted]"
    assert UNKNOWN not in line


class _Shown:
    """An object a log line writes as its text."""

    def __str__(self):
        return f"object at https://x/connect/{UNKNOWN}"


def test_the_json_formatter_redacts_every_field_it_writes():
    """Whatever a record carries besides its message (extra fields, Celery's task arguments
    and results at any depth, their keys, an object's text), no one-use token is written."""
    record = logging.LogRecord("anything", logging.INFO, __file__, 1, "plain message", (), None)
    record.data = {
        "args": f"('https://x/invite/{UNKNOWN}',)",
        "return_value": f"'/accounts/reset/MQ/{UNKNOWN}/'",
        "nested": [{"deep": (f"/CONNECT/{UNKNOWN}?integration=stripe", 3, None)}],
        f"/invite/{UNKNOWN}": True,
    }
    record.shown = _Shown()
    record.request_id = ""
    line = json_formatter().format(record)
    written = json.loads(line)
    assert UNKNOWN not in line
    assert written["data"] == {
        "args": "('https://x/invite/[redacted]',)",
        "return_value": "'/accounts/reset/MQ/[redacted]/'",
        "nested": [{"deep": ["/CONNECT/[redacted]?integration=stripe", 3, None]}],
        "/invite/[redacted]": True,
    }
    assert written["shown"] == "object at https://x/connect/[redacted]"
    assert written["message"] == "plain message"


SECRET = "c2VjcmV0LXZhbHVlLXRoYXQtbXVzdC1ub3QtYmUtbG9nZ2Vk"
# Every path that carries a one-use value, with doubled, dotted, quoted and encoded
# separators before it.
MALFORMED = [
    f"/invite//{SECRET}",
    f"/invite/./{SECRET}",
    f'/invite/"{SECRET}',
    f"/invite/'{SECRET}",
    f"/invite/%2e%2e/{SECRET}",
    f"/invite/%22{SECRET}",
    f"/connect//{SECRET}",
    f"/connect/./{SECRET}",
    f'/connect/"{SECRET}',
    f"/connect/{SECRET}/extra",
    f"/accounts/reset/MQ//{SECRET}/",
    f"/accounts/reset/MQ/./{SECRET}/",
    f'/accounts/reset/MQ/"{SECRET}/',
    f"/accounts/reset//MQ/{SECRET}/",
    f"/INVITE//{SECRET}",
]


@pytest.mark.parametrize("path", MALFORMED)
def test_a_secret_behind_any_separator_is_redacted(path, caplog):
    from core.logs import redact  # noqa: PLC0415

    assert SECRET not in redact(path)
    assert SECRET not in redact(f'"GET {path}?x=1 HTTP/1.1" 404')
    caplog.set_level(logging.INFO)
    Client().get(path)
    assert SECRET not in logged(caplog)


def test_the_paths_without_a_secret_are_left_as_they_are():
    from core.logs import redact  # noqa: PLC0415

    for path in ("/accounts/reset/done/", "/accounts/password-reset/sent/", "/connect/"):
        assert redact(path) == path
