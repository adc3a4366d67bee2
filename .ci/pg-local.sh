#!/usr/bin/env bash
# Starts (or stops) a throw-away PostgreSQL server on 127.0.0.1 for the second test run, the
# bench or local development. It never touches a server or a directory it did not create.
#   url=$(bash .ci/pg-local.sh start)   prints the connection URL (a free port, a new directory)
#   bash .ci/pg-local.sh stop "$url"     stops that server and removes its directory
# Overrides: PGPORT_LOCAL (a port; start refuses it when something listens there) and
# PGDATA_LOCAL (a directory that must not exist or be empty; `stop` also accepts it instead of
# the URL). Every directory it creates holds a marker file `pg-local.owner`; `stop` acts only on a
# directory with that marker. Uses the Debian server binaries, installing postgresql-15 when they
# are missing. initdb refuses to run as root, so the cluster belongs to the postgres user.
set -euo pipefail
MARKER=pg-local.owner
PARENT=${TMPDIR:-/tmp}
BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)

as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
die() { echo "pg-local: $*" >&2; exit 1; }
port_in_use() { node -e 'const s=require("net").connect(+process.argv[1],"127.0.0.1");s.on("connect",()=>process.exit(0));s.on("error",()=>process.exit(1))' "$1"; }
free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

# The directory of a server this script started, from a URL (by its port) or a directory.
owned_dir() {
  local arg=${1:-${PGDATA_LOCAL:-}}
  [ -n "$arg" ] || die "stop needs the URL printed by start (or PGDATA_LOCAL)"
  if [ -d "$arg" ]; then
    [ -f "$arg/$MARKER" ] && echo "$arg"
    return 0
  fi
  local port
  port=$(sed -nE 's#^postgresql://[^@]*@[^:/]+:([0-9]+)/.*#\1#p' <<<"$arg")
  [ -n "$port" ] || die "not a URL printed by start: $arg"
  { grep -lx "port=$port" "$PARENT"/pg-local.*/"$MARKER" 2>/dev/null || true; } | head -n 1 | xargs -r dirname
}

case "${1:-}" in
  start)
    if [ -z "$BIN" ] || [ ! -x "$BIN/initdb" ]; then
      echo "installing postgresql-15 from Debian" >&2
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq >&2 && apt-get install -y -qq postgresql-15 >&2
      BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    fi
    if [ -n "${PGPORT_LOCAL:-}" ]; then
      PORT=$PGPORT_LOCAL
      if port_in_use "$PORT"; then die "port $PORT is in use by another server; leave PGPORT_LOCAL unset for a free port"; fi
    else
      PORT=$(free_port)
    fi
    if [ -n "${PGDATA_LOCAL:-}" ]; then
      DIR=$PGDATA_LOCAL
      if [ -e "$DIR" ] && [ -n "$(ls -A "$DIR")" ]; then die "$DIR is not empty; it is not touched (choose another PGDATA_LOCAL or leave it unset)"; fi
      mkdir -p "$DIR"
    else
      DIR=$(mktemp -d "$PARENT/pg-local.XXXXXXXX")
    fi
    # A start that fails half-way stops what it started and removes its directory.
    trap 'as_pg "$BIN/pg_ctl" -D "$DIR/data" stop -m immediate >/dev/null 2>&1 || true; rm -rf "$DIR"' EXIT
    echo "port=$PORT" >"$DIR/$MARKER"
    mkdir "$DIR/data"
    if [ "$(id -u)" = 0 ]; then chown postgres "$DIR" "$DIR/data"; chmod 755 "$DIR"; fi
    cd /  # the postgres user may not enter the caller's directory
    as_pg "$BIN/initdb" -D "$DIR/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
    as_pg "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/data/server.log" -w \
      -o "-p $PORT -k $DIR/data -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" start >/dev/null
    as_pg "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres app
    trap - EXIT
    echo "postgresql://postgres@127.0.0.1:$PORT/app"
    ;;
  stop)
    DIR=$(owned_dir "${2:-}")
    [ -n "$DIR" ] || die "no server started by this script matches ${2:-$PGDATA_LOCAL}; nothing stopped"
    cd /
    if [ -n "$BIN" ] && [ -f "$DIR/data/postmaster.pid" ]; then as_pg "$BIN/pg_ctl" -D "$DIR/data" stop -m fast >/dev/null; fi
    rm -rf "$DIR"
    ;;
  *) echo "usage: $0 start | stop <url printed by start>" >&2; exit 2 ;;
esac
