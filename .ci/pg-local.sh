#!/usr/bin/env bash
# Starts (or stops) a throw-away PostgreSQL 15 server on 127.0.0.1 for the second test run.
#   bash .ci/pg-local.sh start   prints the connection URL
#   bash .ci/pg-local.sh stop
# Uses the Debian server binaries, installing postgresql-15 when they are missing. initdb refuses
# to run as root, so the cluster belongs to the postgres user.
set -euo pipefail
PORT=${PGPORT_LOCAL:-54329}
DIR=${PGDATA_LOCAL:-/tmp/portfolio-service-pg}
BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)

cd /  # the postgres user may not enter the caller's directory
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case "${1:-}" in
  start)
    if [ -z "$BIN" ] || [ ! -x "$BIN/initdb" ]; then
      echo "installing postgresql-15 from Debian" >&2
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq >&2 && apt-get install -y -qq postgresql-15 >&2
      BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    fi
    if [ -f "$DIR/postmaster.pid" ]; then as_pg "$BIN/pg_ctl" -D "$DIR" stop -m immediate >/dev/null 2>&1 || true; fi
    rm -rf "$DIR"; mkdir -p "$DIR"
    if [ "$(id -u)" = 0 ]; then chown postgres "$DIR"; fi
    as_pg "$BIN/initdb" -D "$DIR" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
    as_pg "$BIN/pg_ctl" -D "$DIR" -l "$DIR/server.log" -w \
      -o "-p $PORT -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" start >/dev/null
    as_pg "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres app
    echo "postgresql://postgres@127.0.0.1:$PORT/app"
    ;;
  stop)
    if [ -n "$BIN" ] && [ -f "$DIR/postmaster.pid" ]; then as_pg "$BIN/pg_ctl" -D "$DIR" stop -m fast >/dev/null; fi
    rm -rf "$DIR"
    ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
