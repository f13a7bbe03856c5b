"""core.postgresql: the connection health check without a round trip (PostgreSQL only)."""

import psycopg
import pytest
from django.db import connection

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the PostgreSQL backend's health check"
)


def sent_statements(monkeypatch) -> list:
    sent = []
    original = psycopg.Cursor.execute

    def execute(self, query, *args, **kwargs):
        sent.append(query)
        return original(self, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", execute)
    return sent


def test_an_idle_connection_is_usable_without_a_statement(transactional_db, monkeypatch):
    connection.ensure_connection()
    sent = sent_statements(monkeypatch)
    assert connection.is_usable()
    assert sent == []


def through_a_pooler() -> bool:
    """Whether the connection reaches PostgreSQL through a pooler such as PgBouncer: the
    server listens on another port than the one the settings name."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT inet_server_port()")
        port = cursor.fetchone()[0]
    return port is not None and port != int(connection.settings_dict["PORT"] or 5432)


def test_a_connection_the_server_ended_is_not_usable(transactional_db):
    if through_a_pooler():
        pytest.skip(
            "behind a pooler, the server process ending leaves the connection to the pooler "
            "open and usable: the pooler gives the next transaction another one"
        )
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    settings = connection.settings_dict
    with psycopg.connect(
        dbname=settings["NAME"],
        user=settings["USER"],
        password=settings["PASSWORD"] or None,
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        autocommit=True,
    ) as other:
        assert other.execute("SELECT pg_terminate_backend(%s, 5000)", [pid]).fetchone()[0]
    assert not connection.is_usable()
    # Django's check before a request's first query replaces it.
    connection.health_check_done = False
    connection.close_if_health_check_failed()
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
    assert connection.connection.info.backend_pid != pid


def test_inside_a_transaction_the_check_is_a_statement(transactional_db, monkeypatch):
    connection.ensure_connection()
    connection.connection.execute("BEGIN")
    try:
        sent = sent_statements(monkeypatch)
        assert connection.is_usable()
        assert sent == ["SELECT 1"]
    finally:
        connection.connection.execute("ROLLBACK")
