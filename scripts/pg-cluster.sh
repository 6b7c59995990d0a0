#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the test suites (`make test` starts one for the whole run).
#
#   scripts/pg-cluster.sh start DIR   initdb a cluster in DIR/data (trust auth, superuser `swipedeck`,
#                                     UTF8, locale C), start it on 127.0.0.1 at a free TCP port with its
#                                     unix socket in DIR/socket and its log in DIR/log, write the URL
#                                     postgres://swipedeck@127.0.0.1:PORT/postgres to DIR/url and print it.
#                                     On a DIR whose cluster is already running: just print the URL.
#   scripts/pg-cluster.sh stop DIR    pg_ctl stop -m fast, then remove DIR (a missing DIR is fine).
#   scripts/pg-cluster.sh url DIR     print the URL.
#
# Only the URL goes to stdout; everything else goes to stderr.
# Run as root, the cluster runs as the `postgres` user (or `nobody` when there is none), which then owns
# DIR; DIR's parents must be searchable by that user (/tmp is). Otherwise it runs as the caller.
# Binaries: $PG_BINDIR, else `pg_config --bindir`, else the newest /usr/lib/postgresql/*/bin, else PATH.
# Settings: max_connections=1000 (the Swift tests run in parallel, each app with a pool of 4 and a listener), shared_buffers=128MB; fsync stays on unless PG_FAST=1, which sets
# fsync=off, synchronous_commit=off and full_page_writes=off (faster, not crash-safe).
set -euo pipefail

MARKER=.swipedeck-pg-cluster

die() { echo "pg-cluster: $*" >&2; exit 1; }
say() { echo "pg-cluster: $*" >&2; }

usage() { die "usage: $0 start|stop|url DIR"; }

[ $# -eq 2 ] || usage
cmd=$1
DIR=$(realpath -m -- "$2")
[ "$DIR" != / ] || die "refusing DIR=/"
DATA=$DIR/data
SOCK=$DIR/socket
LOG=$DIR/log
URLFILE=$DIR/url
cd /  # the cluster user may not be able to enter the caller's working directory

find_bindir() {
  local d
  if [ -n "${PG_BINDIR:-}" ]; then
    [ -x "$PG_BINDIR/initdb" ] || die "PG_BINDIR=$PG_BINDIR has no initdb"
    echo "$PG_BINDIR"; return
  fi
  if command -v pg_config >/dev/null 2>&1; then
    d=$(pg_config --bindir 2>/dev/null || true)
    if [ -n "$d" ] && [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; return; fi
  fi
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$d" ] && [ -x "$d/initdb" ]; then echo "$d"; return; fi
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v initdb)")"; return
  fi
  die "no PostgreSQL server binaries (initdb, pg_ctl) found; on Debian: apt-get install postgresql-15"
}

# The user the cluster runs as: PostgreSQL refuses to run as root.
if [ "$(id -u)" -eq 0 ]; then
  if id -u postgres >/dev/null 2>&1; then RUNAS=postgres; else RUNAS=nobody; fi
else
  RUNAS=
fi

as_user() {
  if [ -n "$RUNAS" ]; then
    if command -v runuser >/dev/null 2>&1; then
      runuser -u "$RUNAS" -- "$@"
    else
      su -s /bin/sh "$RUNAS" -c "$(printf '%q ' "$@")"
    fi
  else
    "$@"
  fi
}

running() { [ -f "$DATA/postmaster.pid" ] && as_user "$BIN/pg_ctl" status -D "$DATA" >/dev/null 2>&1; }

free_port() {
  if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
    return
  fi
  local p i
  for i in $(seq 1 200); do
    p=$(( 20000 + RANDOM % 40000 ))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
  done
  die "no free port found"
}

write_conf() {  # PORT
  {
    echo "# written by scripts/pg-cluster.sh"
    echo "listen_addresses = '127.0.0.1'"
    echo "port = $1"
    echo "unix_socket_directories = '$SOCK'"
    echo "max_connections = 1000"
    echo "shared_buffers = 128MB"
    if [ "${PG_FAST:-0}" = 1 ]; then
      echo "fsync = off"
      echo "synchronous_commit = off"
      echo "full_page_writes = off"
    fi
  } > "$DATA/swipedeck.conf"
  chown "${RUNAS:-$(id -un)}" "$DATA/swipedeck.conf"
}

url_for() { echo "postgres://swipedeck@127.0.0.1:$1/postgres"; }

start() {
  if [ -d "$DATA" ] && running && [ -s "$URLFILE" ]; then
    cat "$URLFILE"; return
  fi
  mkdir -p "$DIR"
  if [ -z "$(ls -A "$DIR")" ]; then touch "$DIR/$MARKER"; fi
  [ -e "$DIR/$MARKER" ] || die "$DIR is not empty and not a pg-cluster.sh directory"
  if [ -n "$RUNAS" ]; then chown "$RUNAS" "$DIR"; chmod 700 "$DIR"; fi
  if [ ! -f "$DATA/PG_VERSION" ]; then
    say "initdb $DATA (as ${RUNAS:-$(id -un)}, $BIN)"
    as_user mkdir -p "$DATA" "$SOCK"
    as_user "$BIN/initdb" -D "$DATA" --auth=trust -U swipedeck --no-sync -E UTF8 --locale=C >>"$LOG.initdb" 2>&1 \
      || { cat "$LOG.initdb" >&2; die "initdb failed"; }
    echo "include = 'swipedeck.conf'" >> "$DATA/postgresql.conf"
  fi
  as_user mkdir -p "$SOCK"
  local attempt port
  for attempt in 1 2 3 4 5; do
    port=$(free_port)
    write_conf "$port"
    if as_user "$BIN/pg_ctl" start -w -t 60 -D "$DATA" -l "$LOG" >&2; then
      url_for "$port" > "$URLFILE"
      say "running on 127.0.0.1:$port (PG_FAST=${PG_FAST:-0}), log $LOG"
      cat "$URLFILE"
      return
    fi
    say "start on port $port failed (attempt $attempt); last log lines:"
    tail -n 5 "$LOG" >&2 || true
  done
  die "could not start the cluster; see $LOG"
}

stop() {
  [ -e "$DIR" ] || { say "$DIR does not exist"; return; }
  [ -e "$DIR/$MARKER" ] || [ -z "$(ls -A "$DIR")" ] || die "$DIR is not a pg-cluster.sh directory; not removing it"
  if [ -f "$DATA/postmaster.pid" ]; then
    as_user "$BIN/pg_ctl" stop -D "$DATA" -m fast -w -t 60 >&2 \
      || as_user "$BIN/pg_ctl" stop -D "$DATA" -m immediate -w -t 30 >&2 \
      || say "pg_ctl stop failed"
  fi
  if [ -f "$DATA/postmaster.pid" ]; then
    local pid
    pid=$(head -n 1 "$DATA/postmaster.pid")
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then say "killing postmaster $pid"; kill -KILL "$pid" || true; fi
  fi
  rm -rf -- "$DIR"
  say "stopped, removed $DIR"
}

case $cmd in
  start) BIN=$(find_bindir); start ;;
  stop) BIN=$(find_bindir); stop ;;
  url) [ -s "$URLFILE" ] || die "no cluster URL in $URLFILE"; cat "$URLFILE" ;;
  *) usage ;;
esac
