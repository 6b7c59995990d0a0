#!/usr/bin/env python3
"""Checks that the per-swipe export runs in constant memory: seeds a deck with N swipes (default
1,000,000) straight into a fresh database with scripts/bench_seed.py, starts the server on it,
streams GET /api/v1/decks/getaways/swipes.csv and .jsonl to /dev/null (counting rows), and
prints the server's resident memory before and its peak (VmHWM) after each export.

    python3 scripts/export_memory.py [--swipes 1000000] [--binary .build/release/swipedeck]

The figure to look at is the growth of the peak over the RSS before the export: it should be a
few MB (one page of 5,000 rows and its text), not hundreds (the whole body).
"""
import argparse
import http.client
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "export-memory-token"


def status_kb(pid, field):
    """A field of /proc/<pid>/status in kB (VmRSS, VmHWM)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def wait_for(port, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/")
            connection.getresponse().read()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not start")


def stream(port, path):
    """Streams the export, returning (rows, bytes, seconds)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    started = time.perf_counter()
    connection.request("GET", path, headers={"Authorization": f"Bearer {TOKEN}"})
    response = connection.getresponse()
    if response.status != 200:
        raise SystemExit(f"{path}: {response.status} {response.read()[:300]!r}")
    rows, size = 0, 0
    while chunk := response.read(1 << 16):
        rows += chunk.count(b"\n")
        size += len(chunk)
    return rows, size, time.perf_counter() - started


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--swipes", type=int, default=1_000_000)
    ap.add_argument("--binary", default=str(ROOT / ".build/debug/swipedeck"))
    ap.add_argument("--port", type=int, default=8159)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "export.sqlite")
        # The first start creates the schema and the sample deck; then the swipes go in directly.
        env = dict(os.environ, SWIPEDECK_ADMIN_TOKEN=TOKEN)
        args = [a.binary, "serve", "--db", db, "--port", str(a.port)]
        server = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(a.port)
        server.terminate()
        server.wait(30)
        subprocess.run([sys.executable, str(ROOT / "scripts/bench_seed.py"), db, "--swipes", str(a.swipes)], check=True)
        server = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for(a.port)
            print(f"server pid {server.pid}; RSS before any export {status_kb(server.pid, 'VmRSS') / 1024:.1f} MB, "
                  f"peak so far {status_kb(server.pid, 'VmHWM') / 1024:.1f} MB")
            for path in ["/api/v1/decks/getaways/swipes.csv", "/api/v1/decks/getaways/swipes.jsonl"]:
                before = status_kb(server.pid, "VmRSS")
                rows, size, seconds = stream(a.port, path)
                peak = status_kb(server.pid, "VmHWM")
                print(f"{path}: {rows:,} lines, {size / 1e6:.0f} MB in {seconds:.1f} s; "
                      f"RSS before {before / 1024:.1f} MB, peak {peak / 1024:.1f} MB (+{(peak - before) / 1024:.1f} MB)")
        finally:
            server.terminate()
            server.wait(30)


if __name__ == "__main__":
    main()
