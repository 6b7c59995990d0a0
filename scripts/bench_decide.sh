#!/usr/bin/env bash
# Issue 29's simulation: listed, shuffled and adaptive order through the server's own StopRule and
# AdaptiveDeal, with known like rates and a share of careless participants. It counts swipes, not
# time, so the debug build gives the same figures as a release one (and shares the tests' build).
#
#   bash scripts/bench_decide.sh [runs] [seed]     (default 20 runs from seed 29)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product DecideBench
.build/debug/DecideBench "$@"
