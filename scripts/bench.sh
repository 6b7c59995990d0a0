#!/usr/bin/env bash
# `make bench` / `make bench-large`: swipe throughput against a bare Hummingbird server, in one
# run, on 127.0.0.1 only (release builds, wrk on the same cores).
#
#   1. GET / of scripts/hello (bare Hummingbird 2, same version, no middleware): hello/s.
#   2. POST /api/v1/decks/getaways/swipes on an empty database: every request a distinct, valid
#      drag swipe (own participant/card pair, unique Idempotency-Key, 30-60 sample trace with
#      jitter); afterwards the rows added must match the 201s wrk counted. RSS sampled meanwhile.
#   3. `swipedeck seed` stores SEED swipes (default 1,000,000) through the writer's own code
#      (same checks, trace encoding and aggregates as the API); bytes per stored swipe = file
#      size ÷ rows; then the same swipe run on that database, and the results page.
#   4. hello again; ratios use the mean of both hello runs.
#   5. scripts/bench_history.py: one participant's history and the owner's report of them at
#      10,000 swipes (median, p95, max of 50 requests each).
#   6. scripts/bench_postgres.sh: PostgreSQL with one and with two servers, beside SQLite and
#      hello measured again in that step (it appends its own table).
#
# Environment: SEED (default 1000000; `make bench-large` sets 10000000), BENCH_DURATION (10s),
# BENCH_CONNS (32), BENCH_THREADS (wrk threads, 2), SWIPEDECK_BENCH_SCRATCH (SwiftPM scratch path,
# default .build), BENCH_SEEDED_DB (keep the seeded database at this path and reuse it on the next
# run instead of seeding again), BENCH_NO_APPEND=1 to only print, BENCH_PROFILE=1 to profile each swipe run with
# perf (see start_profile), BENCH_BASELINE=PATH (another release binary, e.g. main before a change:
# its empty-database run follows this build's, in the same run, and the ratios print side by side),
# BENCH_SKIP_POSTGRES=1 to stop before step 6. Quick check that it runs:
#   SEED=20000 BENCH_DURATION=3s BENCH_NO_APPEND=1 bash scripts/bench.sh
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

echo "== building release: swipedeck, and the bare Hummingbird hello server (scripts/hello)"
swift build -c release --scratch-path "$SCRATCH" --product swipedeck 2>&1 | tail -n 1
BIN="$ROOT/$SCRATCH/release/swipedeck"
# Same Hummingbird and NIO as swipedeck: start from its resolved versions.
[ -f Package.resolved ] && cp Package.resolved scripts/hello/Package.resolved
swift build -c release --package-path scripts/hello 2>&1 | tail -n 1
HELLO="$ROOT/scripts/hello/.build/release/hello"
version_of() { python3 -c 'import json,sys; p=[x for x in json.load(open(sys.argv[1]))["pins"] if x["identity"]=="hummingbird"]; print(p[0]["state"].get("version","?") if p else "?")' "$1"; }
HB_MAIN=$(version_of Package.resolved)
HB_HELLO=$(version_of scripts/hello/Package.resolved)
echo "   hummingbird: swipedeck $HB_MAIN, hello $HB_HELLO"
[ "$HB_MAIN" = "$HB_HELLO" ] || { echo "bench: hello resolved another Hummingbird" >&2; exit 1; }

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

# RSS sampler: the largest VmRSS of $PID (MB) while it runs, in $WORK/rss.
start_rss() {
  local pid=$PID
  echo "?" >"$WORK/rss"
  ( max=0; while kill -0 "$pid" 2>/dev/null; do
      kb=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
      [ "${kb:-0}" -gt "$max" ] && max=$kb && echo $((max / 1024)) >"$WORK/rss"
      sleep 0.2
    done ) &
  RSS_PID=$!
}
read_rss() { cat "$WORK/rss" 2>/dev/null || echo "?"; }

rows() { sqlite3 "$1" "SELECT COUNT(*) FROM swipes"; }

# BENCH_PROFILE=1: perf samples the server (cpu-clock, 499 Hz, call graphs) during each swipe run;
# the server's CPU by library and its 25 hottest functions (self time) are printed after the run,
# and the data kept in $BENCH_PROFILE_DIR (default /tmp) as perf-RUN.data for `perf report -i`.
start_profile() { # run
  PERF_OUT="${BENCH_PROFILE_DIR:-/tmp}/perf-$1.data"
  perf record -q -e cpu-clock -F 499 -g -o "$PERF_OUT" -p "$PID" >/dev/null 2>&1 &
  PERF_PID=$!
}
stop_profile() { # run label
  kill -INT "$PERF_PID" 2>/dev/null || true
  wait "$PERF_PID" 2>/dev/null || true
  echo "   profile of the server ($2): share of its samples by library, then by function (self)"
  # head closes the pipe early: that is not a failure of the benchmark.
  { perf report -i "$PERF_OUT" --stdio --no-children --sort dso 2>/dev/null | grep -E '^ +[0-9]' | head -n 12; } || true
  { perf report -i "$PERF_OUT" --stdio --no-children --sort symbol -g none 2>/dev/null | grep -E '^ +[0-9]' |
    sed -E 's/ {2,}.*$//' | head -n 25; } || true
}

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

# ---------------------------------------------------------------- configuration
SEED=${SEED:-1000000}
CONNS=${BENCH_CONNS:-32}
RESULTS=()

hello_run() { # label
  local port
  port=$(free_port)
  "$HELLO" "$port" >>"$WORK/hello.log" 2>&1 &
  local hp=$!
  for _ in $(seq 1 100); do http_get "http://127.0.0.1:$port/" >/dev/null 2>&1 && break; sleep 0.05; done
  run_wrk "GET / (bare Hummingbird hello, $1)" "$CONNS" "http://127.0.0.1:$port/" scripts/bench_get.lua
  kill "$hp"; wait "$hp" 2>/dev/null || true
  RESULTS+=("hello ($1)|$CONNS|$RPS|$P50|$P99|")
  HELLO_RPS+=("$RPS")
}

# swipe_run DB LABEL RUN: wrk of validated, committed swipes; checks every 201 is a row.
swipe_run() {
  local db=$1 label=$2 run=$3
  start_server "$db"
  local base="http://127.0.0.1:$PORT"
  local cards
  cards=$(http_get "$base/api/v1/decks/getaways/cards?limit=100" |
    python3 -c 'import json,sys; print(" ".join(str(c["id"]) for c in json.load(sys.stdin)["cards"]))')
  start_rss
  local before after created non201 added extra
  before=$(rows "$db")
  [ -n "${BENCH_PROFILE:-}" ] && start_profile "$run"
  run_wrk "POST swipes ($label)" "$CONNS" "$base" scripts/bench_swipes.lua getaways "$run" $cards
  [ -n "${BENCH_PROFILE:-}" ] && stop_profile "$run" "$label"
  created=$(sed -n 's/^CREATED //p' "$WORK/wrk.out")
  non201=$(sed -n 's/^NON201 //p' "$WORK/wrk.out")
  after=$(rows "$db")
  added=$((after - before))
  # wrk stops with up to CONNS requests in flight: the server may commit those after wrk stopped counting.
  extra=$((added - created))
  if [ "$non201" != "0" ] || [ "$extra" -lt 0 ] || [ "$extra" -gt "$CONNS" ]; then
    echo "bench: MISMATCH: 201s=$created non-201=$non201 rows added=$added" >&2
    grep '^STATUS' "$WORK/wrk.out" >&2
    exit 1
  fi
  local rss
  rss=$(read_rss)
  echo "   verified: $created × 201, 0 other statuses, $added rows added; server RSS max ${rss} MB"
  RESULTS+=("POST swipes, $label|$CONNS|$RPS|$P50|$P99|$created × 201 = rows; RSS max $rss MB")
  SWIPE_RPS+=("$RPS")
  if [ -n "${4:-}" ]; then
    local cold
    cold=$(http_get "$base/d/getaways/results" seconds)
    echo "   GET /d/getaways/results at $after swipes: $(python3 -c "print(f'{$cold * 1000:.1f}')") ms"
    run_wrk "GET results ($after swipes)" 4 "$base/d/getaways/results" scripts/bench_get.lua
    RESULTS+=("GET /d/getaways/results, $after swipes|4|$RPS|$P50|$P99|first request $(python3 -c "print(f'{$cold * 1000:.1f}')") ms")
  fi
  stop_server
}

bytes_per_swipe() { # db -> "size bytes, bytes/swipe"
  sqlite3 "$1" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
  local size n
  size=$(stat -c %s "$1")
  n=$(rows "$1")
  python3 -c "print(f'{$size / max($n, 1):.0f}')"
}

python3 scripts/bench_participants.py "$PARTICIPANT_SECRET" run1 run2 run3 --threads "$THREADS" --per-thread 20000 >"$WORK/pids.txt"
export SWIPEDECK_BENCH_PIDS="$WORK/pids.txt"
HELLO_RPS=()
SWIPE_RPS=()

# ---------------------------------------------------------------- hello, empty, seeded, hello
hello_run "before"

EMPTY="$WORK/empty.sqlite"
swipe_run "$EMPTY" "empty database" run1
if [ -n "${BENCH_BASELINE:-}" ]; then
  # The same run with the baseline binary on its own empty database, between the same hello runs.
  NEW_BIN=$BIN
  BIN=$BENCH_BASELINE
  swipe_run "$WORK/baseline.sqlite" "empty database, baseline $(basename "$(dirname "$(dirname "$(dirname "$BIN")")")")" run3
  BIN=$NEW_BIN
  BASELINE_RPS=${SWIPE_RPS[1]}
  SWIPE_RPS=("${SWIPE_RPS[0]}")
fi

LARGE=${BENCH_SEEDED_DB:-"$WORK/large.sqlite"}
if [ -n "${BENCH_SEEDED_DB:-}" ] && [ -f "$LARGE" ]; then
  # A database seeded by an earlier run (seeding 10,000,000 takes most of an hour): used as it is,
  # and it keeps the swipes this run adds.
  echo "== using $LARGE as seeded: $(rows "$LARGE") swipes"
else
  start_server "$LARGE"; stop_server   # creates the file with the sample deck
  echo "== seeding $SEED swipes (swipedeck seed: the writer's own code path, no HTTP)"
  "$BIN" seed getaways --db "$LARGE" --swipes "$SEED" --participant-secret "$PARTICIPANT_SECRET"
fi
BPS=$(bytes_per_swipe "$LARGE")
echo "   database: $(stat -c %s "$LARGE") bytes for $(rows "$LARGE") swipes = $BPS bytes per swipe"
swipe_run "$LARGE" "after seeding $SEED" run2 results
BPS_AFTER=$(bytes_per_swipe "$LARGE")

hello_run "after"

# ---------------------------------------------------------------- one participant with 10,000 swipes
echo "== history: one participant, 10,000 swipes (scripts/bench_history.py, its own server and database)"
python3 scripts/bench_history.py --binary "$BIN" | tee "$WORK/history.txt"

# ---------------------------------------------------------------- ratios and report
RATIOS=$(python3 - "${HELLO_RPS[@]}" "${SWIPE_RPS[@]}" ${BASELINE_RPS:-} <<'PY'
import sys
h1, h2, empty, large = map(float, sys.argv[1:5])
hello = (h1 + h2) / 2
baseline = f"; baseline empty {float(sys.argv[5]) / hello:.2f}" if len(sys.argv) > 5 else ""
print(f"swipes/s ÷ hello/s: empty {empty / hello:.2f}, after seeding {large / hello:.2f}; seeded ÷ empty {large / empty:.2f}{baseline} (hello = mean of {h1:.0f} and {h2:.0f})")
PY
)
echo
echo "$RATIOS"
echo "bytes per stored swipe (file ÷ rows, after checkpoint): $BPS after seeding, $BPS_AFTER after the second run"

DATE=$(date -u '+%Y-%m-%d %H:%M UTC')
CPU=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)
MACHINE="$(nproc) cores ($CPU), $(awk '/^MemTotal:/ {printf "%d", $2 / 1048576}' /proc/meminfo) GiB RAM, $(uname -sr); wrk -t$THREADS on the same cores; load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
{
  echo
  echo "### $DATE — throughput (\`SEED=$SEED bash scripts/bench.sh\`), commit $COMMIT"
  echo
  echo "Machine: $MACHINE. Release build, \`--rate-participant 0 --rate-ip 0\`, $DURATION per run, c=$CONNS, $(grep -o 'synchronous=[A-Z]*' "$WORK/server.log" | head -n 1)."
  echo
  echo "| run | conns | req/s | p50 ms | p99 ms | check |"
  echo "|---|---:|---:|---:|---:|---|"
  for r in "${RESULTS[@]}"; do
    IFS='|' read -r route conns rps p50 p99 note <<<"$r"
    echo "| $route | $conns | $rps | $p50 | $p99 | $note |"
  done
  echo
  echo "$RATIOS. Bytes per stored swipe: $BPS (file ÷ rows after seeding $SEED, WAL checkpointed)."
  echo
  echo "One participant with 10,000 swipes (\`scripts/bench_history.py\`, one request at a time):"
  echo
  sed -n 's/^ *\(history\|owner\)/- \1/p' "$WORK/history.txt"
} >"$WORK/report.md"
echo
cat "$WORK/report.md"
if [ "${BENCH_NO_APPEND:-}" != "1" ]; then
  cat "$WORK/report.md" >>BENCHMARKS.md
  echo "(appended to BENCHMARKS.md)"
fi

# ---------------------------------------------------------------- PostgreSQL, one and two servers
[ "${BENCH_SKIP_POSTGRES:-}" = "1" ] && exit 0
echo
echo "== PostgreSQL (scripts/bench_postgres.sh)"
bash scripts/bench_postgres.sh
