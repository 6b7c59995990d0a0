#!/usr/bin/env bash
# Memory of the per-swipe export of a large deck: seeds N swipes (default 1,000,000) into a
# fresh database with scripts/bench_seed.py, starts the server, streams
# /api/v1/decks/getaways/swipes.csv and .jsonl to /dev/null, and prints the server's resident
# memory before, and its peak (VmHWM) after each export. Loopback only; a benchmark, not a test.
#
#   bash scripts/export_memory.sh [N]      (SWIPEDECK_BINARY overrides the server binary)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000000}
BIN=${SWIPEDECK_BINARY:-.build/debug/swipedeck}
WORK=$(mktemp -d /tmp/swipedeck-export.XXXXXX)
trap 'kill "$PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
serve() {
  "$BIN" serve --port "$PORT" --db "$WORK/db.sqlite" --admin-token t >>"$WORK/server.log" 2>&1 &
  PID=$!
  for _ in $(seq 100); do
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$PORT/healthz')" 2>/dev/null && return
    sleep 0.1
  done
  echo "server did not start" >&2; exit 1
}
kib() { awk -v k="$1" '$1 == k":" {print $2}' "/proc/$PID/status"; }
serve
kill "$PID"; wait "$PID" 2>/dev/null || true
python3 scripts/bench_seed.py "$WORK/db.sqlite" --deck getaways --swipes "$N"
serve
echo "database: $(du -m "$WORK/db.sqlite" | cut -f1) MiB; server RSS before: $(( $(kib VmRSS) / 1024 )) MiB"
for ext in csv jsonl; do
  start=$(date +%s.%N)
  bytes=$(curl -s -H 'Authorization: Bearer t' "http://127.0.0.1:$PORT/api/v1/decks/getaways/swipes.$ext" | wc -c)
  end=$(date +%s.%N)
  printf 'swipes.%s: %s bytes (%s rows) in %.1f s; server RSS now %d MiB, peak %d MiB\n' "$ext" "$bytes" "$N" \
    "$(echo "$end - $start" | bc)" $(( $(kib VmRSS) / 1024 )) $(( $(kib VmHWM) / 1024 ))
done
