# Swipedeck: `make run` serves the sample deck; `make test` installs what a fresh machine lacks
# (Debian chromium, webkit2gtk-driver, xvfb and firefox-esr for the three browser engines, wrk, esbuild,
# sqlite3, and zbar-tools and librsvg2-bin for the QR code tests; a Python venv with pinned Playwright,
# websocket-client, pytest and schemathesis) and runs every suite: Swift (model, parity with node,
# server), node, and the real-browser / durability / hostile-input / schemathesis suites under pytest,
# among them parity and the core browser suite in Chromium, WebKit and Firefox (Tests/Browser/test_engine*.py;
# WebKit gets an Xvfb display of its own, no xvfb-run needed).
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
APT_PACKAGES := chromium webkit2gtk-driver xvfb firefox-esr wrk esbuild sqlite3 zbar-tools librsvg2-bin zlib1g-dev

.PHONY: run test deps apt venv swift-test node-test py-test engine-test bench bench-large bench-page bench-physics fuzz clean

run:
	swift run swipedeck

test: deps swift-test node-test py-test

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

swift-test:
	swift build --build-tests
	swift test --skip-build

node-test:
	node --test Tests/js/

# --build-tests: the server binary and the test bundle (the engines' parity asks Swift for the corpus
# and the verdict: Tests/Browser/test_engine_parity.py).
py-test: venv
	swift build --build-tests
	$(PY) -m pytest -q Tests/System Tests/Browser

# Only the three-engine suites (Chromium, WebKit, Firefox): parity, the core browser suite, quirks.
engine-test: deps
	swift build --build-tests
	$(PY) -m pytest -q Tests/Browser/test_engine_parity.py Tests/Browser/test_engines.py Tests/Browser/test_engine_quirks.py

bench-physics:
	swift build -c release --product PhysicsBench
	.build/release/PhysicsBench

# Swipes/s against a bare Hummingbird hello server, empty and after seeding 1,000,000 swipes
# (bench-large: 10,000,000). See scripts/bench.sh for SEED, BENCH_DURATION, BENCH_NO_APPEND.
bench: apt
	bash scripts/bench.sh

bench-large: apt
	SEED=10000000 bash scripts/bench.sh

# The deck page on a throttled phone (150 ms RTT, 1.6 Mbit/s, 4x CPU): bytes on the wire and time to drag.
bench-page: deps
	swift build -c release --product swipedeck
	$(PY) scripts/bench_page.py --binary .build/release/swipedeck

fuzz: venv
	swift build --product swipedeck
	SWIPEDECK_FUZZ_EXAMPLES=1000 $(PY) -m pytest -q Tests/System/test_schemathesis.py

clean:
	rm -rf .build $(VENV)
