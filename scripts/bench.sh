#!/usr/bin/env bash
# `make bench`: HTTP benchmarks of a release build with wrk, on 127.0.0.1 only.
#
#   1. POST /api/v1/decks/getaways/swipes: every request a distinct, valid drag swipe (own
#      participant/card pair, unique Idempotency-Key, 30-60 sample trace with jitter), at
#      concurrency 4 and 32. Afterwards the rows added must match the 201s wrk counted.
#   2. GET /d/getaways (the deck page) at concurrency 4 and 32.
#   3. GET /d/getaways/results on a deck with 100,000 swipes: one cold request after a
#      restart, then wrk at concurrency 4.
# Prints req/s, p50 and p99 for each and appends them to BENCHMARKS.md.
#
# Environment: BENCH_DURATION (default 10s), BENCH_THREADS (wrk threads, default 2),
# SWIPEDECK_BENCH_SCRATCH (SwiftPM scratch path, default .build), BENCH_NO_APPEND=1 to only print.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

DURATION=${BENCH_DURATION:-10s}
THREADS=${BENCH_THREADS:-2}
PARTICIPANT_SECRET=bench-participant-secret-0123456789
SCRATCH=${SWIPEDECK_BENCH_SCRATCH:-.build}

for tool in wrk sqlite3 python3; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is missing (make deps installs wrk and sqlite3)" >&2; exit 1; }
done

echo "== building release"
swift build -c release --scratch-path "$SCRATCH" --product swipedeck 2>&1 | tail -n 1
BIN="$ROOT/$SCRATCH/release/swipedeck"

WORK=$(mktemp -d /tmp/swipedeck-bench.XXXXXX)
PID=""
cleanup() {
  if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then kill "$PID"; wait "$PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# http_get URL [seconds|body]: prints the body, or the wall time in seconds (no curl needed).
http_get() {
  python3 - "$1" "${2:-body}" <<'PY'
import sys, time, urllib.request
t = time.perf_counter()
with urllib.request.urlopen(sys.argv[1], timeout=30) as r:
    body = r.read()
    assert r.status == 200, r.status
print(f"{time.perf_counter() - t:.4f}" if sys.argv[2] == "seconds" else body.decode())
PY
}

start_server() { # db
  PORT=$(free_port)
  "$BIN" serve --host 127.0.0.1 --port "$PORT" --db "$1" --admin-token bench-token \
    --participant-secret "$PARTICIPANT_SECRET" --rate-participant 0 --rate-ip 0 --rate-mint 0 >>"$WORK/server.log" 2>&1 &
  PID=$!
  for _ in $(seq 1 200); do
    http_get "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && return 0
    kill -0 "$PID" 2>/dev/null || { cat "$WORK/server.log" >&2; exit 1; }
    sleep 0.05
  done
  echo "bench: server did not start" >&2; exit 1
}

stop_server() {
  kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
}

rows() { sqlite3 "$1" "SELECT COUNT(*) FROM swipes"; }

# "name|conns|req/s|p50 ms|p99 ms|note" lines for the summary.
RESULTS=()

# run_wrk NAME CONNS URL SCRIPT [ARGS...] -> sets RPS P50 P99 and leaves wrk's output in $WORK/wrk.out
run_wrk() {
  local name=$1 conns=$2 url=$3 script=$4; shift 4
  local threads=$THREADS
  [ "$conns" -lt "$threads" ] && threads=$conns
  wrk -t"$threads" -c"$conns" -d"$DURATION" --timeout 5s -s "$script" "$url" ${1:+--} "$@" >"$WORK/wrk.out" 2>&1 || {
    cat "$WORK/wrk.out" >&2; exit 1; }
  local line
  line=$(grep '^RESULT ' "$WORK/wrk.out")
  local requests duration p50 p99
  requests=$(sed -E 's/.*requests=([0-9]+).*/\1/' <<<"$line")
  duration=$(sed -E 's/.*duration_us=([0-9]+).*/\1/' <<<"$line")
  p50=$(sed -E 's/.*p50_us=([0-9]+).*/\1/' <<<"$line")
  p99=$(sed -E 's/.*p99_us=([0-9]+).*/\1/' <<<"$line")
  RPS=$(python3 -c "print(f'{$requests / ($duration / 1e6):.0f}')")
  P50=$(python3 -c "print(f'{$p50 / 1000:.2f}')")
  P99=$(python3 -c "print(f'{$p99 / 1000:.2f}')")
  printf '%-34s c=%-3s %8s req/s   p50 %7s ms   p99 %7s ms\n' "$name" "$conns" "$RPS" "$P50" "$P99"
}

# ---------------------------------------------------------------- swipes and deck page
DB="$WORK/bench.sqlite"
start_server "$DB"
BASE="http://127.0.0.1:$PORT"
CARDS=$(http_get "$BASE/api/v1/decks/getaways/cards?limit=100" |
  python3 -c 'import json,sys; print(" ".join(str(c["id"]) for c in json.load(sys.stdin)["cards"]))')
echo "== server on $BASE (pid $PID), getaways cards: $(wc -w <<<"$CARDS")"
grep -o 'synchronous=[A-Z]*' "$WORK/server.log" | head -n 1

# The wrk script names participants the server must have signed (see bench_participants.py).
python3 scripts/bench_participants.py "$PARTICIPANT_SECRET" run1 run2 --threads "$THREADS" --per-thread 20000 >"$WORK/pids.txt"
export SWIPEDECK_BENCH_PIDS="$WORK/pids.txt"

RUN=0
for conns in 4 32; do
  RUN=$((RUN + 1))
  before=$(rows "$DB")
  run_wrk "POST swipes (validated, committed)" "$conns" "$BASE" scripts/bench_swipes.lua getaways "run$RUN" $CARDS
  created=$(sed -n 's/^CREATED //p' "$WORK/wrk.out")
  non201=$(sed -n 's/^NON201 //p' "$WORK/wrk.out")
  after=$(rows "$DB")
  added=$((after - before))
  # wrk stops with up to `conns` requests in flight: the server may commit those after wrk
  # stopped counting, so rows may exceed the 201s by at most the connection count.
  extra=$((added - created))
  if [ "$non201" != "0" ] || [ "$extra" -lt 0 ] || [ "$extra" -gt "$conns" ]; then
    echo "bench: MISMATCH: 201s=$created non-201=$non201 rows added=$added" >&2
    grep '^STATUS' "$WORK/wrk.out" >&2
    exit 1
  fi
  echo "   verified: $created × 201, 0 other statuses, $added rows added (in flight at stop: $extra)"
  RESULTS+=("POST /api/v1/decks/getaways/swipes|$conns|$RPS|$P50|$P99|$created × 201 = rows added ($extra in flight at stop)")
done

for conns in 4 32; do
  run_wrk "GET /d/getaways (deck page)" "$conns" "$BASE/d/getaways" scripts/bench_get.lua
  non200=$(sed -n 's/^NON200 //p' "$WORK/wrk.out")
  [ "$non200" = "0" ] || { echo "bench: deck page answered $non200 non-200s" >&2; exit 1; }
  RESULTS+=("GET /d/getaways|$conns|$RPS|$P50|$P99|all 200")
done
stop_server

# ---------------------------------------------------------------- results page, 100,000 swipes
RDB="$WORK/results.sqlite"
start_server "$RDB"
python3 scripts/bench_seed.py "$RDB" --deck getaways --swipes 100000
stop_server
start_server "$RDB"
BASE="http://127.0.0.1:$PORT"
COLD=$(http_get "$BASE/d/getaways/results" seconds)
COLD_MS=$(python3 -c "print(f'{$COLD * 1000:.1f}')")
echo "GET /d/getaways/results, 100,000 swipes: cold (first request after start) $COLD_MS ms"
run_wrk "GET /d/getaways/results (100k)" 4 "$BASE/d/getaways/results" scripts/bench_get.lua
non200=$(sed -n 's/^NON200 //p' "$WORK/wrk.out")
[ "$non200" = "0" ] || { echo "bench: results page answered $non200 non-200s" >&2; exit 1; }
RESULTS+=("GET /d/getaways/results (100,000 swipes)|4|$RPS|$P50|$P99|cold first request $COLD_MS ms")
stop_server

# ---------------------------------------------------------------- report
DATE=$(date -u '+%Y-%m-%d %H:%M UTC')
CPU=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)
MACHINE="$(nproc) cores ($CPU), $(awk '/^MemTotal:/ {printf "%d", $2 / 1048576}' /proc/meminfo) GiB RAM, $(uname -sr); wrk -t$THREADS on the same cores; load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
{
  echo
  echo "### $DATE — \`make bench\` (\`bash scripts/bench.sh\`), commit $COMMIT"
  echo
  echo "Machine: $MACHINE. Release build, \`--rate-participant 0 --rate-ip 0\`, $DURATION per run, $(grep -o 'synchronous=[A-Z]*' "$WORK/server.log" | head -n 1)."
  echo
  echo "| route | conns | req/s | p50 ms | p99 ms | check |"
  echo "|---|---:|---:|---:|---:|---|"
  for r in "${RESULTS[@]}"; do
    IFS='|' read -r route conns rps p50 p99 note <<<"$r"
    echo "| $route | $conns | $rps | $p50 | $p99 | $note |"
  done
} >"$WORK/report.md"
echo
cat "$WORK/report.md"
if [ "${BENCH_NO_APPEND:-}" != "1" ]; then
  [ -f BENCHMARKS.md ] || printf '# Benchmarks\n\nFigures appended by `make bench` (scripts/bench.sh), newest last.\n' >BENCHMARKS.md
  cat "$WORK/report.md" >>BENCHMARKS.md
  echo "(appended to BENCHMARKS.md)"
fi
