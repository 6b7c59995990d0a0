# Swipedeck: `make run` serves the sample deck; `make test` installs what a fresh machine lacks
# (Debian chromium, webkit2gtk-driver, xvfb and firefox-esr for the three browser engines, wrk, esbuild,
# sqlite3, postgresql-15 (initdb, pg_ctl, psql) for the PostgreSQL runs, and zbar-tools and librsvg2-bin
# for the QR code tests, nginx-light and openssl for the reverse-proxy test (TLS in front of two servers); a Python venv with pinned Playwright, websocket-client, pytest and schemathesis)
# and runs every suite: Swift (model, parity with node, server), node, and the real-browser / durability /
# hostile-input / schemathesis suites under pytest, among them parity and the core browser suite in
# Chromium, WebKit and Firefox (Tests/Browser/test_engine*.py; WebKit gets an Xvfb display of its own,
# no xvfb-run needed).
# Both storage engines: `make test` starts one throwaway PostgreSQL cluster for the whole run
# (scripts/pg-cluster.sh, in /tmp/swipedeck-pg.*, stopped and removed at the end even when a suite fails)
# and exports its URL as SWIPEDECK_TEST_POSTGRES_URL. With it set, swift-test runs the Swift tests twice
# (SQLite, then PostgreSQL through SWIPEDECK_TEST_DATABASE_URL, a fresh database per test, without the
# suites that touch no storage), each with the concurrency-pool watchdog (scripts/swift-test.sh), and the pytest
# system suites (Tests/System) run once per engine; the browser suites stay on SQLite. `make swift-test`,
# `make node-test` and `make py-test` on their own (without the variable) run SQLite only.
# PG_FAST=1 makes the cluster skip fsync (faster, not crash-safe).
SHELL := /bin/bash
# Every build `make` runs treats a compiler warning in this package's own code as an error
# (Package.swift reads it): `swift build` prints no warning, and `make test` keeps it so.
export SWIPEDECK_WARNINGS_AS_ERRORS := 1
VENV := .venv
PY := $(VENV)/bin/python
APT_PACKAGES := chromium webkit2gtk-driver xvfb firefox-esr wrk esbuild sqlite3 postgresql-15 zbar-tools librsvg2-bin zlib1g-dev nginx-light openssl

.PHONY: run test deps apt venv style-test swift-test node-test py-test engine-test bench bench-postgres bench-large bench-page bench-physics bench-decide bench-stuffing bench-crowd bench-rooms bench-connections bench-stage fuzz clean

run:
	swift run swipedeck

# One throwaway PostgreSQL cluster for the whole run; the EXIT trap stops and removes it whatever the
# suites' outcome, also on Ctrl-C (the recipe keeps the status of the failing suite).
test: deps
	@dir=$$(mktemp -d /tmp/swipedeck-pg.XXXXXX); \
	trap 'bash scripts/pg-cluster.sh stop "'"$$dir"'"' EXIT; trap 'exit 130' INT TERM HUP; \
	url=$$(bash scripts/pg-cluster.sh start "$$dir") || exit 1; \
	echo "PostgreSQL test cluster: $$url"; \
	SWIPEDECK_TEST_POSTGRES_URL=$$url $(MAKE) style-test swift-test node-test py-test

deps: apt venv

apt:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  (apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

venv: $(VENV)/.installed

$(VENV)/.installed: requirements.txt
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r requirements.txt
	touch $@

# The Swift style: `swift format` (in the toolchain) with .swift-format (4 spaces, 120 columns); a file
# it would change, or a rule it flags, fails the run. `swift format -i -r Sources Tests Package.swift` fixes
# the layout. The JavaScript's style is Tests/js/style.test.mjs (node-test).
style-test:
	swift format lint --strict --parallel -r Sources Tests Package.swift

# SQLite always; again against PostgreSQL (without the storage-free suites) when
# SWIPEDECK_TEST_POSTGRES_URL names a cluster (make test). The pool watchdog fails a run in which a
# task waited over 5 s to start on Swift's concurrency pool (scripts/swift-test.sh).
swift-test:
	swift build --build-tests
	bash scripts/swift-test.sh

node-test:
	node --test Tests/js/

# --build-tests: the server binary and the test bundle (the engines' parity asks Swift for the corpus
# and the verdict: Tests/Browser/test_engine_parity.py). Two pytest-xdist workers, one test file each
# at a time (--dist loadfile: a file's servers and browsers are its own; a browser test mostly waits on
# its page, about a third of a core); then the measurements marked `alone`, on a machine left to them.
# PY_WORKERS=0 runs everything in one process. --durations: the 25 slowest tests, for the time budget.
PY_WORKERS ?= 2
py-test: venv
	swift build --build-tests
	$(PY) -m pytest -q --durations=25 $(if $(filter 0,$(PY_WORKERS)),,-n $(PY_WORKERS) --dist loadfile) -m 'not alone' Tests/System Tests/Browser
	$(PY) -m pytest -q -m alone Tests/System Tests/Browser

# Only the three-engine suites (Chromium, WebKit, Firefox): parity, the core browser suite, quirks.
engine-test: deps
	swift build --build-tests
	$(PY) -m pytest -q Tests/Browser/test_engine_parity.py Tests/Browser/test_engines.py Tests/Browser/test_engine_quirks.py

bench-physics:
	swift build -c release --product PhysicsBench
	.build/release/PhysicsBench

# Stop rules and adaptive dealing simulated with known truth (counts, not time: a debug build). See scripts/bench_decide.sh.
bench-decide:
	bash scripts/bench_decide.sh

# Swipes/s against a bare Hummingbird hello server, empty and after seeding 1,000,000 swipes
# (bench-large: 10,000,000). See scripts/bench.sh for SEED, BENCH_DURATION, BENCH_NO_APPEND.
bench: apt
	bash scripts/bench.sh

# PostgreSQL alone: one and two servers on a throwaway cluster, beside SQLite and hello (also step 6 of bench).
bench-postgres: apt
	bash scripts/bench_postgres.sh

bench-large: apt
	SEED=10000000 bash scripts/bench.sh

# The deck page on a throttled phone (150 ms RTT, 1.6 Mbit/s, 4x CPU): bytes on the wire and time to drag.
bench-page: deps
	swift build -c release --product swipedeck
	$(PY) scripts/bench_page.py --binary .build/release/swipedeck

# Vote stuffing against default settings for a minute, and an honest classroom beside it (both
# variants of the attack: batches as fast as it can, then paced drags in many threads).
bench-stuffing:
	swift build -c release --product swipedeck
	python3 scripts/bench_stuffing.py 60
	STUFFING_PACED=1 python3 scripts/bench_stuffing.py 60

# Issue 35 in one run, 10 minutes: honest crowds (30/120/500 on one /24 in three tastes, 2,000 over
# 20 /24s) joining by the free budget or the join puzzle, beside attacks (a) lockstep batches, (b)
# identical votes at a human pace, (c) a host rotating /24s (and (d), its core-seconds per counted
# identity), and a throttled Chromium phone timing the page's puzzle (the venv's Playwright).
bench-crowd: deps
	swift build -c release --product swipedeck
	$(PY) scripts/bench_crowd.py --duration 600

# Match rooms: 1,000 rooms × 4 members swiping with every events stream open (match latency, swipes/s
# beside no rooms; then again at a human pace, a swipe every 8 s each), 5,000 open streams (RSS),
# matches per swipe shared order vs liked-first. A small run:
# python3 scripts/bench_rooms.py --rooms 20 --streams 200 --sim 10
bench-rooms:
	swift build -c release --product swipedeck
	python3 scripts/bench_rooms.py
	python3 scripts/bench_rooms.py --only a --pace 8

# The big screen's phones: 1,000 stage streams on one server, then on two servers on one PostgreSQL;
# from the presenter's Lock, Unlock, Reveal and Hide to every phone (p50, p99), and memory.
bench-stage: apt
	swift build -c release --product swipedeck
	python3 scripts/bench_stage.py

# Memory per open connection against the bare Hummingbird server, in one run.
bench-connections:
	swift build -c release --product swipedeck
	swift build -c release --package-path scripts/hello
	python3 scripts/bench_connections.py

fuzz: venv
	swift build --product swipedeck
	SWIPEDECK_FUZZ_EXAMPLES=1000 $(PY) -m pytest -q Tests/System/test_schemathesis.py

clean:
	rm -rf .build $(VENV)
