"""Django's PostgreSQL backend, with a health check that costs no round trip when the
server has said nothing.

With CONN_HEALTH_CHECKS, Django checks a persistent connection before the first query of
each request with `SELECT 1`: a round trip to the server on every request. A connection
the server (or PgBouncer, or the network) has closed has something to read: the end of
the stream, or the server's last message before it ends the session. So: an idle
connection with nothing to read is usable, as `SELECT 1` would find it; one with
something to read, or in any other state, gets Django's `SELECT 1` check.
"""

import select

from django.db.backends.postgresql.base import DatabaseWrapper as PostgreSQLDatabaseWrapper
from psycopg.pq import TransactionStatus


def nothing_to_read(fd: int) -> bool:
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLPRI)
    return not poller.poll(0)


class DatabaseWrapper(PostgreSQLDatabaseWrapper):
    def is_usable(self):
        conn = self.connection
        if conn is None or conn.closed or conn.broken:
            return False
        try:
            if conn.info.transaction_status == TransactionStatus.IDLE and nothing_to_read(
                conn.fileno()
            ):
                return True
        except (AttributeError, OSError, ValueError):  # no poll() here, or no socket
            pass
        return super().is_usable()
