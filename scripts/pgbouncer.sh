#!/usr/bin/env bash
# A PgBouncer in transaction pooling mode in front of the local PostgreSQL, for running the
# suite through it (docs/operations.md, PgBouncer): `scripts/pgbouncer.sh start [port]`,
# `scripts/pgbouncer.sh stop`. Debian's pgbouncer package (`make pgbouncer-deps`); it runs
# as the postgres user, with its files in a folder of its own.
set -euo pipefail
PORT="${2:-6432}"
DIR="${PGBOUNCER_DIR:-/tmp/figures-pgbouncer}"
UPSTREAM_HOST="${PGBOUNCER_UPSTREAM_HOST:-127.0.0.1}"
UPSTREAM_PORT="${PGBOUNCER_UPSTREAM_PORT:-5432}"
RUN_AS="${PGBOUNCER_USER:-postgres}"

case "${1:-}" in
start)
  mkdir -p "$DIR"
  cat > "$DIR/pgbouncer.ini" <<INI
[databases]
* = host=$UPSTREAM_HOST port=$UPSTREAM_PORT

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $PORT
unix_socket_dir =
auth_type = trust
auth_file = $DIR/userlist.txt
pool_mode = transaction
max_client_conn = 500
default_pool_size = 40
server_reset_query =
ignore_startup_parameters = extra_float_digits,options
pidfile = $DIR/pgbouncer.pid
logfile = $DIR/pgbouncer.log
admin_users = postgres
INI
  echo '"postgres" ""' > "$DIR/userlist.txt"
  if [ "$(id -u)" = 0 ]; then chown -R "$RUN_AS" "$DIR"; fi
  if [ "$(id -u)" = 0 ]; then
    /usr/sbin/pgbouncer -d -u "$RUN_AS" "$DIR/pgbouncer.ini"
  else
    /usr/sbin/pgbouncer -d "$DIR/pgbouncer.ini"
  fi
  for _ in $(seq 50); do
    pg_isready -h 127.0.0.1 -p "$PORT" -q && { echo "pgbouncer (transaction pooling) on 127.0.0.1:$PORT"; exit 0; }
    sleep 0.2
  done
  echo "pgbouncer did not start; see $DIR/pgbouncer.log" >&2
  exit 1
  ;;
stop)
  if [ -f "$DIR/pgbouncer.pid" ]; then
    kill "$(cat "$DIR/pgbouncer.pid")" 2>/dev/null || true
    for _ in $(seq 50); do [ -f "$DIR/pgbouncer.pid" ] || break; sleep 0.2; done
  fi
  ;;
*)
  echo "usage: $0 start [port] | stop" >&2
  exit 2
  ;;
esac
