"""A `swipedeck serve` on 127.0.0.1 for the scripts that measure (bench_page, bench_stuffing,
measure_traces): a free port, a database of their own, started and waited for."""
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(binary, database, extra_args=(), name="server", log=subprocess.DEVNULL):
    """`binary serve` on a free port with `database` and `extra_args`; returns (process, base URL)
    once /healthz answers, or exits with a sentence naming `name` after 20 s."""
    port = free_port()
    process = subprocess.Popen(
        [str(binary), "serve", "--db", str(database), "--port", str(port), *extra_args],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT if log is not subprocess.DEVNULL else subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(400):
        if process.poll() is not None:
            sys.exit(f"{name}: the server exited with {process.returncode}")
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1)
            return process, base
        except OSError:
            time.sleep(0.05)
    process.kill()
    sys.exit(f"{name}: the server did not start")


def swipedeck_binary():
    """The release build of `swipedeck` when there is one, else the debug build; exits with how to
    build it when there is neither."""
    for build in ("release", "debug"):
        path = ROOT / ".build" / build / "swipedeck"
        if path.exists():
            return path
    sys.exit("build first: swift build -c release --product swipedeck")
