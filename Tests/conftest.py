"""Shared pytest fixtures: a real `swipedeck serve` on 127.0.0.1 with a temporary database."""
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# SWIPEDECK_BINARY overrides the binary (e.g. a build in another --scratch-path).
BINARY = Path(os.environ.get("SWIPEDECK_BINARY") or ROOT / ".build" / "debug" / "swipedeck").resolve()
ADMIN_TOKEN = "test-admin-token"
from signed_ids import PARTICIPANT_SECRET


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A swipedeck process; restartable on the same port and database."""

    def __init__(self, db: Path, port: int, extra_args=(), env=None):
        self.db, self.port, self.extra_args = db, port, list(extra_args)
        self.env = dict(os.environ, **(env or {}))
        self.proc = None
        self.base = f"http://127.0.0.1:{port}"

    def start(self, timeout=20.0):
        assert BINARY.exists(), f"build first: {BINARY} missing (make test builds it)"
        self.log = open(self.db.with_suffix(".log"), "ab")
        self.proc = subprocess.Popen(
            [str(BINARY), "serve", "--port", str(self.port), "--db", str(self.db), "--admin-token", ADMIN_TOKEN,
             "--participant-secret", PARTICIPANT_SECRET, *self.extra_args],
            cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT, env=self.env)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}; see {self.db.with_suffix('.log')}")
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("server did not start in time")

    def stop(self, sig=signal.SIGTERM):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def kill9(self):
        self.stop(signal.SIGKILL)

    def request(self, method, path, body=None, headers=None, raw=None):
        """(status, headers, parsed JSON or text)."""
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        h = {"Content-Type": "application/json"} if body is not None else {}
        h.update(headers or {})
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=h)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                status, hdrs, text = r.status, dict(r.headers), r.read().decode()
        except urllib.error.HTTPError as e:
            status, hdrs, text = e.code, dict(e.headers), e.read().decode()
        try:
            return status, hdrs, json.loads(text)
        except ValueError:
            return status, hdrs, text


@pytest.fixture()
def tmpdir_path():
    d = Path(tempfile.mkdtemp(prefix="swipedeck-test-"))
    yield d
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture()
def make_server(tmpdir_path):
    """Factory: make_server(extra_args=[...], env={...}) -> started Server (stopped at teardown)."""
    servers = []

    def factory(extra_args=(), env=None, db_name="deck.sqlite"):
        s = Server(tmpdir_path / db_name, free_port(), extra_args, env).start()
        servers.append(s)
        return s

    yield factory
    for s in servers:
        s.stop()


@pytest.fixture()
def server(make_server):
    """A fresh server with the sample deck `getaways`."""
    return make_server()
