#!/usr/bin/env bash
# The Swift tests, as `make swift-test` runs them: on SQLite, then (when SWIPEDECK_TEST_POSTGRES_URL
# names a cluster) again on PostgreSQL, skipping there the suites that never touch storage (the
# physics model and the pure rules: the SQLite run has them, and the PostgreSQL run would only
# repeat them, the parity corpus's minute of CPU included).
#
# Each run has the pool watchdog on (Tests/TestSupport/PoolWatchdog.swift): a task that waited
# over 5 s to start on Swift's concurrency pool is a stall, printed with what the pool's threads
# were running; one of SWIPEDECK_POOL_STALL_SECONDS (default 10) fails the run, even when every
# test passed, because that is what starved the live-results tests.
#
# At most SWIPEDECK_TEST_WIDTH tests (default 24) run at once (Swift Testing's
# SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH): started all at once, the suite's 475 tests opened
# some 2,000 PostgreSQL connections and databases in the same seconds (connect timeouts), and
# queued their first steps on two pool threads. 24 keeps both cores busy.
set -uo pipefail
cd "$(dirname "$0")/.."

# Suites with no storage in them (both targets' pure suites).
storage_free='^SwipePhysicsTests\.|^SwipedeckServerTests\.(AgreementTests|CommentStripperTests|DomainTests|ImageMetadataTests|ImageSnifferTests|PoolHygieneTests|PresentViewParityTests|QRCodeTests|ResultsViewParityTests|RoomRuleTests|StopRuleTests|SwipeRuleTests|SwipeFingerprintTests|TraceCodecTests)/'

# run NAME [swift test arguments]: one run with its own watchdog report; fails on a failed test or a stall.
run() {
  local name=$1; shift
  local report; report=$(mktemp /tmp/swipedeck-pool.XXXXXX)
  local started=$SECONDS
  SWIPEDECK_POOL_WATCHDOG=$report SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${SWIPEDECK_TEST_WIDTH:-24} \
    swift test --skip-build "$@"
  local status=$?
  echo "swift-test: $name took $((SECONDS - started)) s"
  if [ -s "$report" ]; then
    echo "swift-test: $name: the concurrency pool stalled (the pool watchdog's report):"
    cat "$report"
    status=1
  fi
  rm -f "$report"
  return $status
}

status=0
(unset SWIPEDECK_TEST_DATABASE_URL; run SQLite) || status=1
if [ -n "${SWIPEDECK_TEST_POSTGRES_URL:-}" ]; then
  echo "swift-test: again against PostgreSQL ($SWIPEDECK_TEST_POSTGRES_URL), without the storage-free suites"
  SWIPEDECK_TEST_DATABASE_URL=$SWIPEDECK_TEST_POSTGRES_URL run PostgreSQL --skip "$storage_free" || status=1
fi
exit $status
