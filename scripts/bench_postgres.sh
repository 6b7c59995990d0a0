#!/usr/bin/env bash
# `make bench-postgres` (and step 6 of `make bench`): swipes/s on PostgreSQL with one and with two
# `swipedeck serve` processes on one database, next to SQLite and a bare Hummingbird hello server
# measured in the same run (127.0.0.1 only, release builds, wrk on the same cores).
#
#   1. hello (bare Hummingbird, scripts/hello), c=CONNS.
#   2. SQLite, empty database: one server, c=CONNS.
#   3. PostgreSQL (a throwaway cluster, scripts/pg-cluster.sh, durable settings: fsync on,
#      synchronous_commit on), empty database: one server, c=CONNS.
#   4. The same database, two servers: two wrk processes at once, c=CONNS/2 each; the sum.
#   5. One server on a database with synchronous_commit=off (commits do not wait for the WAL
#      flush; a PostgreSQL crash may lose the last commits): how much of (3) is the flush.
# After every swipe run the rows added must match the 201s wrk counted (no duplicate, no loss).
# CPU seconds used by the swipedeck processes and by PostgreSQL during each run show where the
# bound is (2 shared cores: wrk, the servers and PostgreSQL's backends all compete for them).
#
# Environment: BENCH_DURATION (10s), BENCH_CONNS (32), BENCH_NO_APPEND=1 to only print,
# SWIPEDECK_BENCH_SCRATCH (SwiftPM scratch path, default .build). Quick check:
#   BENCH_DURATION=3s BENCH_NO_APPEND=1 bash scripts/bench_postgres.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DURATION=${BENCH_DURATION:-10s}
CONNS=${BENCH_CONNS:-32}
SCRATCH=${SWIPEDECK_BENCH_SCRATCH:-.build}
SECRET=bench-participant-secret-0123456789

for tool in wrk sqlite3 psql python3; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is missing (make deps installs it)" >&2; exit 1; }
done
echo "== building release: swipedeck and scripts/hello"
swift build -c release --scratch-path "$SCRATCH" --product swipedeck 2>&1 | tail -n 1
BIN="$ROOT/$SCRATCH/release/swipedeck"
[ -f Package.resolved ] && cp Package.resolved scripts/hello/Package.resolved
swift build -c release --package-path scripts/hello 2>&1 | tail -n 1
HELLO="$ROOT/scripts/hello/.build/release/hello"

WORK=$(mktemp -d /tmp/swipedeck-benchpg.XXXXXX)
# Its own folder: the cluster runs as an unprivileged user, who cannot enter $WORK.
CLUSTER=$(mktemp -d /tmp/swipedeck-benchpg-cluster.XXXXXX)
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  bash scripts/pg-cluster.sh stop "$CLUSTER" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_http() { # url pid
  for _ in $(seq 1 200); do
    python3 -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1], timeout=1)" "$1" 2>/dev/null && return 0
    kill -0 "$2" 2>/dev/null || { cat "$WORK"/server*.log >&2; exit 1; }
    sleep 0.05
  done
  echo "bench: $1 did not answer" >&2; exit 1
}

# serve DATABASE -> sets PORT, SERVER_PID
serve() {
  PORT=$(free_port)
  "$BIN" serve --host 127.0.0.1 --port "$PORT" --database "$1" --admin-token bench-token --participant-secret "$SECRET" \
    --rate-participant 0 --rate-ip 0 --rate-mint 0 >>"$WORK/server-$PORT.log" 2>&1 &
  SERVER_PID=$!
  PIDS+=("$SERVER_PID")
  wait_http "http://127.0.0.1:$PORT/healthz" "$SERVER_PID"
}

# CPU seconds (user + system) used so far by the given processes.
cpu_of() {
  python3 - "$@" <<'PY'
import os, sys
tick = os.sysconf("SC_CLK_TCK")
total = 0
for pid in sys.argv[1:]:
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    except (OSError, IndexError):
        pass
print(f"{total / tick:.2f}")
PY
}
postgres_pids() { pgrep -f "^postgres" | tr '\n' ' '; }

# wrk_swipes URL RUN CONNS THREADS OUT: one wrk of distinct valid swipes.
wrk_swipes() {
  local cards
  cards=$(python3 -c "import json,urllib.request,sys; print(' '.join(str(c['id']) for c in json.load(urllib.request.urlopen(sys.argv[1]))['cards']))" \
    "$1/api/v1/decks/getaways/cards?limit=100")
  wrk -t"$4" -c"$3" -d"$DURATION" --timeout 5s -s scripts/bench_swipes.lua "$1" -- getaways "$2" $cards >"$5" 2>&1
}
field() { sed -n "s/^RESULT .*$1=\([0-9]*\).*/\1/p" "$2"; }
rate() { python3 -c "print(f'{$(field requests "$1") / ($(field duration_us "$1") / 1e6):.0f}')"; }
ms() { python3 -c "print(f'{$(field "$1" "$2") / 1000:.2f}')"; }
created() { sed -n 's/^CREATED //p' "$1"; }
non201() { sed -n 's/^NON201 //p' "$1"; }

check_rows() { # label rows_added created_total
  local extra=$(($2 - $3))
  if [ "$extra" -lt 0 ] || [ "$extra" -gt "$CONNS" ]; then
    echo "bench: MISMATCH in $1: $3 × 201 but $2 rows added" >&2; exit 1
  fi
}

python3 scripts/bench_participants.py "$SECRET" sq pg1 pg2a pg2b pg3 --threads 2 --per-thread 20000 >"$WORK/pids.txt"
export SWIPEDECK_BENCH_PIDS="$WORK/pids.txt"
RESULTS=()

echo "== 1. hello"
HP=$(free_port); "$HELLO" "$HP" >>"$WORK/hello.log" 2>&1 & PIDS+=($!)
wait_http "http://127.0.0.1:$HP/" "${PIDS[-1]}"
wrk -t2 -c"$CONNS" -d"$DURATION" --timeout 5s -s scripts/bench_get.lua "http://127.0.0.1:$HP/" >"$WORK/hello.out" 2>&1
HELLO_RPS=$(rate "$WORK/hello.out")
kill "${PIDS[-1]}"
RESULTS+=("bare Hummingbird hello|$CONNS|$HELLO_RPS|$(ms p50_us "$WORK/hello.out")|$(ms p99_us "$WORK/hello.out")|")
echo "   $HELLO_RPS req/s"

echo "== 2. SQLite, one server"
serve "$WORK/bench.sqlite"
c0=$(cpu_of "$SERVER_PID")
wrk_swipes "http://127.0.0.1:$PORT" sq "$CONNS" 2 "$WORK/sq.out"
c1=$(cpu_of "$SERVER_PID")
[ "$(non201 "$WORK/sq.out")" = 0 ] || { cat "$WORK/sq.out" >&2; exit 1; }
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
check_rows sqlite "$(sqlite3 "$WORK/bench.sqlite" 'SELECT COUNT(*) FROM swipes')" "$(created "$WORK/sq.out")"
SQ_RPS=$(rate "$WORK/sq.out")
RESULTS+=("SQLite, 1 server|$CONNS|$SQ_RPS|$(ms p50_us "$WORK/sq.out")|$(ms p99_us "$WORK/sq.out")|$(created "$WORK/sq.out") × 201 = rows; swipedeck CPU $(python3 -c "print(f'{$c1 - $c0:.1f}')") s")
echo "   $SQ_RPS swipes/s"

echo "== 3. PostgreSQL, one server"
URL=$(bash scripts/pg-cluster.sh start "$CLUSTER")
psql "$URL" -qc "CREATE DATABASE bench" >/dev/null
DB="${URL%/postgres}/bench?sslmode=disable"
PGVERSION=$(psql "$URL" -Atc "SHOW server_version")
PGSYNC=$(psql "$URL" -Atc "SHOW synchronous_commit")
PGFSYNC=$(psql "$URL" -Atc "SHOW fsync")
serve "$DB"
ONE=$SERVER_PID
before=$(psql "$DB" -Atc "SELECT COUNT(*) FROM swipes")
s0=$(cpu_of "$ONE"); p0=$(cpu_of $(postgres_pids))
wrk_swipes "http://127.0.0.1:$PORT" pg1 "$CONNS" 2 "$WORK/pg1.out"
s1=$(cpu_of "$ONE"); p1=$(cpu_of $(postgres_pids))
[ "$(non201 "$WORK/pg1.out")" = 0 ] || { cat "$WORK/pg1.out" >&2; exit 1; }
sleep 1
after=$(psql "$DB" -Atc "SELECT COUNT(*) FROM swipes")
check_rows "postgres, one server" $((after - before)) "$(created "$WORK/pg1.out")"
PG1_RPS=$(rate "$WORK/pg1.out")
RESULTS+=("PostgreSQL, 1 server|$CONNS|$PG1_RPS|$(ms p50_us "$WORK/pg1.out")|$(ms p99_us "$WORK/pg1.out")|$(created "$WORK/pg1.out") × 201 = rows; CPU swipedeck $(python3 -c "print(f'{$s1 - $s0:.1f}')") s, PostgreSQL $(python3 -c "print(f'{$p1 - $p0:.1f}')") s")
echo "   $PG1_RPS swipes/s"

echo "== 4. PostgreSQL, two servers on the same database"
FIRST_PORT=$PORT
serve "$DB"
TWO=$SERVER_PID
before=$(psql "$DB" -Atc "SELECT COUNT(*) FROM swipes")
s0=$(cpu_of "$ONE" "$TWO"); p0=$(cpu_of $(postgres_pids))
wrk_swipes "http://127.0.0.1:$FIRST_PORT" pg2a $((CONNS / 2)) 1 "$WORK/pg2a.out" &
W1=$!
wrk_swipes "http://127.0.0.1:$PORT" pg2b $((CONNS / 2)) 1 "$WORK/pg2b.out"
wait "$W1"
s1=$(cpu_of "$ONE" "$TWO"); p1=$(cpu_of $(postgres_pids))
for out in pg2a pg2b; do [ "$(non201 "$WORK/$out.out")" = 0 ] || { cat "$WORK/$out.out" >&2; exit 1; }; done
sleep 1
after=$(psql "$DB" -Atc "SELECT COUNT(*) FROM swipes")
BOTH=$(( $(created "$WORK/pg2a.out") + $(created "$WORK/pg2b.out") ))
check_rows "postgres, two servers" $((after - before)) "$BOTH"
DUPES=$(psql "$DB" -Atc "SELECT COUNT(*) - COUNT(DISTINCT id) FROM swipes")
[ "$DUPES" = 0 ] || { echo "bench: $DUPES duplicate keys" >&2; exit 1; }
PG2_RPS=$(python3 -c "print($(rate "$WORK/pg2a.out") + $(rate "$WORK/pg2b.out"))")
RESULTS+=("PostgreSQL, 2 servers (sum)|$((CONNS / 2)) + $((CONNS / 2))|$PG2_RPS|$(ms p50_us "$WORK/pg2a.out") / $(ms p50_us "$WORK/pg2b.out")|$(ms p99_us "$WORK/pg2a.out") / $(ms p99_us "$WORK/pg2b.out")|$BOTH × 201 = rows, no duplicate key; CPU swipedeck $(python3 -c "print(f'{$s1 - $s0:.1f}')") s, PostgreSQL $(python3 -c "print(f'{$p1 - $p0:.1f}')") s")
echo "   $PG2_RPS swipes/s"

echo "== 5. PostgreSQL, one server, synchronous_commit=off"
kill "$ONE" "$TWO"; wait "$ONE" "$TWO" 2>/dev/null || true
psql "$URL" -qc "CREATE DATABASE bench_async" -c "ALTER DATABASE bench_async SET synchronous_commit = off" >/dev/null
ASYNC="${URL%/postgres}/bench_async?sslmode=disable"
serve "$ASYNC"
s0=$(cpu_of "$SERVER_PID"); p0=$(cpu_of $(postgres_pids))
wrk_swipes "http://127.0.0.1:$PORT" pg3 "$CONNS" 2 "$WORK/pg3.out"
s1=$(cpu_of "$SERVER_PID"); p1=$(cpu_of $(postgres_pids))
[ "$(non201 "$WORK/pg3.out")" = 0 ] || { cat "$WORK/pg3.out" >&2; exit 1; }
sleep 1
check_rows "postgres, synchronous_commit=off" "$(psql "$ASYNC" -Atc "SELECT COUNT(*) FROM swipes")" "$(created "$WORK/pg3.out")"
PG3_RPS=$(rate "$WORK/pg3.out")
RESULTS+=("PostgreSQL, 1 server, synchronous_commit=off|$CONNS|$PG3_RPS|$(ms p50_us "$WORK/pg3.out")|$(ms p99_us "$WORK/pg3.out")|$(created "$WORK/pg3.out") × 201 = rows; CPU swipedeck $(python3 -c "print(f'{$s1 - $s0:.1f}')") s, PostgreSQL $(python3 -c "print(f'{$p1 - $p0:.1f}')") s")
echo "   $PG3_RPS swipes/s"

RATIOS=$(python3 -c "
h, s, p1, p2, p3 = $HELLO_RPS, $SQ_RPS, $PG1_RPS, $PG2_RPS, $PG3_RPS
print(f'swipes/s ÷ hello/s: SQLite {s / h:.2f}, PostgreSQL one server {p1 / h:.2f}, two servers {p2 / h:.2f}, '
      f'one server without waiting for the flush {p3 / h:.2f}; PostgreSQL one server ÷ SQLite {p1 / s:.2f}, two ÷ one {p2 / p1:.2f}')")
echo
echo "$RATIOS"
DATE=$(date -u '+%Y-%m-%d %H:%M UTC')
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
{
  echo
  echo "### $DATE — PostgreSQL, one and two servers (\`bash scripts/bench_postgres.sh\`), commit $COMMIT"
  echo
  echo "Machine: $(nproc) cores, $(uname -sr); wrk on the same cores; PostgreSQL $PGVERSION (throwaway cluster, fsync=$PGFSYNC, synchronous_commit=$PGSYNC, pool 16 per server); $DURATION per run; empty databases; load average at the end $(cut -d' ' -f1-3 /proc/loadavg)."
  echo
  echo "| run | conns | req/s | p50 ms | p99 ms | check |"
  echo "|---|---:|---:|---:|---:|---|"
  for r in "${RESULTS[@]}"; do
    IFS='|' read -r name conns rps p50 p99 note <<<"$r"
    echo "| $name | $conns | $rps | $p50 | $p99 | $note |"
  done
  echo
  echo "$RATIOS."
} >"$WORK/report.md"
cat "$WORK/report.md"
if [ "${BENCH_NO_APPEND:-}" != "1" ]; then
  cat "$WORK/report.md" >>BENCHMARKS.md
  echo "(appended to BENCHMARKS.md)"
fi
