"""Swift ↔ physics.js parity in the three browser engines (JavaScriptCore, SpiderMonkey and V8 as Chromium
runs it), with the physics.js the swipedeck server ships, byte for byte.

The corpus is ParityTests' (102,000 generated lines over every profile and rejection rule; fewer with
SWIPEDECK_PARITY_LINES=N): ParityEngineTests.swift writes it, a page (Tests/js/parity-page.mjs) runs the
node runner's per-line code (Tests/js/parity-line.mjs) over it in each engine and posts the output back,
and ParityEngineTests.swift compares every decision, rejection code, suspect flag, velocity, progress and
motion/stack value with Swift bit for bit (springs within 1e-9, as under node). The golden vectors
(Tests/Fixtures/golden.jsonl) are compared here with the classification Swift committed.

Needs the Swift test build (`swift build --build-tests`, which `make test` runs first)."""
import hashlib
import json
import os
import struct
import subprocess
import time
import urllib.request

import pytest

from deckkit import DESKTOP, ROOT
from parity_site import ParitySite

LINES = os.environ.get("SWIPEDECK_PARITY_LINES")
# SHA-256 of outputs Swift has compared and found equal on every line, and the engine whose output it was:
# an engine whose output is the same bytes has the same verdict without a second minute of comparison.
VERIFIED = {}


def swift_parity_test(name, **env):
    """Runs one ParityEngineTests test of the built test bundle with `env`; returns (exit code, output)."""
    full = dict(os.environ, **env, **({"SWIPEDECK_PARITY_LINES": LINES} if LINES else {}))
    run = subprocess.run(["swift", "test", "--skip-build", "--filter", f"ParityEngineTests/{name}"],
                         cwd=ROOT, env=full, capture_output=True, text=True, timeout=600)
    return run.returncode, run.stdout + run.stderr


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("parity")
    code, out = swift_parity_test("export", SWIPEDECK_PARITY_EXPORT=str(folder))
    assert code == 0 and (folder / "in.jsonl").exists(), (
        f"could not export the parity corpus (build the tests first: `swift build --build-tests`):\n{out[-3000:]}")
    return folder


@pytest.fixture()
def site(corpus, server):
    with urllib.request.urlopen(server.base + "/js/physics.js") as r:
        shipped = r.read()
    assert b"export const Classification" in shipped
    s = ParitySite(corpus, shipped)
    yield s
    s.close()


def bits(x):
    return struct.pack("<d", x)


def number(v):
    """A number from the page's exact JSON (-0, NaN and the infinities come as strings)."""
    return float(v) if isinstance(v, str) else float(v)


def test_parity_corpus_and_golden_vectors(engine, site, record_property):
    page = engine.new_page(viewport=DESKTOP)
    try:
        started = time.perf_counter()
        page.goto(f"{site.base}/?engine={engine.name}")
        page.wait_for("() => window.parity?.state === 'ready'", what="the parity page's module")
        page.evaluate("() => window.startParity()")
        result = page.wait_for("() => ['done', 'failed'].includes(window.parity.state) && window.parity",
                               timeout=900, interval=0.5, what="the parity run")
        ran = time.perf_counter()
    finally:
        page.close()
    assert result["state"] == "done", result.get("error")

    # Golden vectors: the classification Swift committed, bit for bit.
    golden = [json.loads(line) for line in (ROOT / "Tests/Fixtures/golden.jsonl").read_text().splitlines() if line]
    assert len(result["golden"]) == len(golden) >= 40
    for i, (g, text) in enumerate(zip(golden, result["golden"]), 1):
        got, want = json.loads(text), g["expected"]
        where = f"{engine.name} golden {i} ({g['profile']}: {g['note']})"
        for key in ("decision", "rejection", "suspect"):
            assert got[key] == want[key], f"{where}: {key} {got[key]!r} ≠ Swift {want[key]!r}"
        for name, a, b in (("velocity.x", got["velocity"]["x"], want["velocity"]["x"]),
                           ("velocity.y", got["velocity"]["y"], want["velocity"]["y"]),
                           ("progress", got["progress"], want["progress"])):
            assert bits(number(a)) == bits(number(b)), f"{where}: {name} {a!r} ≠ Swift {b!r}"

    # The corpus: Swift compares the engine's output line by line (unless it is byte for byte an output
    # Swift already found equal: engines may differ in the last bit of Math.exp, and then it is compared).
    output = site.output(engine.name)
    assert result["lines"] >= (int(LINES) if LINES else 100_000)
    digest = hashlib.sha256(output.read_bytes()).hexdigest()
    if digest in VERIFIED:
        print(f"parity[physics.js in {engine.name}]: the same bytes as {VERIFIED[digest]}'s output, compared")
    else:
        code, out = swift_parity_test("compareOutput", SWIPEDECK_PARITY_OUTPUT=str(output),
                                      SWIPEDECK_PARITY_RUNNER=f"physics.js in {engine.name}")
        summary = [line for line in out.splitlines() if line.startswith("parity[")]
        assert code == 0 and summary, f"{engine.name}: Swift ↔ physics.js mismatches:\n{out[-6000:]}"
        assert " 0 mismatches" in summary[0], summary[0]
        VERIFIED[digest] = engine.name
    compared = time.perf_counter()
    # Printed at the end (conftest), from the report: under pytest-xdist the test runs in a worker.
    record_property("parity_times", (engine.name, engine.version, result["lines"], result["computeMs"] / 1000,
                                     ran - started, compared - ran))
    output.unlink()
