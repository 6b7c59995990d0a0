"""Shared pytest fixtures: a real `swipedeck serve` on 127.0.0.1 with a temporary database.

Storage engines: SQLite always; PostgreSQL too when SWIPEDECK_TEST_POSTGRES_URL names a cluster
(`make test` starts one with scripts/pg-cluster.sh). Tests under Tests/System that use `make_server`
/ `server` run once per engine (ids `sqlite` / `postgres`, through the `db_engine` fixture); everything
else (the browser suites) stays on SQLite. On PostgreSQL each factory database name gets a fresh
database `sd_<hex>` on the cluster (a restarted server, or a second server on the same `db_name`,
reuses it), dropped at teardown. `server.sql(query)` reads rows from either engine.
"""
import contextlib
import glob
import json
import os
import secrets
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from testenv import ADMIN_TOKEN, BINARY, ROOT, free_port
from signed_ids import PARTICIPANT_SECRET

# The cluster for the PostgreSQL runs (its `postgres` database; test databases are created beside it).
POSTGRES_URL = os.environ.get("SWIPEDECK_TEST_POSTGRES_URL", "")
ENGINES = ["sqlite"] + (["postgres"] if POSTGRES_URL else [])
# Tests under this directory run once per engine; all others on SQLite only.
PER_ENGINE_DIR = ROOT / "Tests" / "System"
_PSQL_SEP, _PSQL_REC, _PSQL_NULL = "\x1f", "\x1e", "\x1a"


def psql_binary() -> str:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/psql"), key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    path = os.environ.get("PSQL") or (found[-1] if found else shutil.which("psql"))
    assert path, "psql not found (Debian: apt-get install postgresql-client-15)"
    return path


def psql(url, query, timeout=60):
    """Rows of `query` on `url` as tuples of strings (None for NULL), through psql."""
    out = subprocess.run(
        [psql_binary(), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-F", _PSQL_SEP, "-R", _PSQL_REC,
         "-P", "null=" + _PSQL_NULL, "-P", "pager=off", "-d", url, "-c", query],
        capture_output=True, text=True, timeout=timeout, env=dict(os.environ, PGCONNECT_TIMEOUT="10"))
    if out.returncode != 0:
        raise RuntimeError(f"psql failed ({out.returncode}) on {query!r}: {out.stderr.strip()}")
    text = out.stdout.rstrip("\n")
    if not text:
        return []
    return [tuple(None if v == _PSQL_NULL else v for v in rec.split(_PSQL_SEP))
            for rec in text.split(_PSQL_REC) if rec != ""]


def with_database(url, name):
    """`url` with its database (path) replaced by `name`."""
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


def _sqlite_text(v):
    """SQLite values as psql prints them, so both engines compare the same."""
    if v is None:
        return None
    if isinstance(v, bytes):
        return "\\x" + v.hex()
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return str(int(v))
    return str(v)


def _pg_text(v):
    return {"t": "1", "f": "0"}.get(v, v)


class Server:
    """A swipedeck process; restartable on the same port and database.

    `db` is the SQLite file (on PostgreSQL only the stem of the log file `db.with_suffix(".log")`);
    `database_url` (postgres://…) selects PostgreSQL. `engine` is "sqlite" or "postgres".
    """

    def __init__(self, db: Path, port: int, extra_args=(), env=None, database_url=None, participant_secret=True):
        self.db, self.port, self.extra_args = db, port, list(extra_args)
        # Off: the server makes its own participant secret and keeps it in the database (under its secret key).
        self.participant_secret = participant_secret
        self.engine = "postgres" if database_url else "sqlite"
        self.database_url = database_url or str(db)
        self.env = dict(os.environ, **(env or {}))
        self.proc = None
        self.base = f"http://127.0.0.1:{port}"

    def database_args(self):
        return ["--database", self.database_url] if self.engine == "postgres" else ["--db", str(self.db)]

    def sql(self, query):
        """Rows of a read-only `query` as tuples of strings (None for NULL), the same on both engines:
        booleans as '1'/'0', integral floats without '.0', blobs as '\\x<hex>'. No parameters: inline literals."""
        if self.engine == "postgres":
            return [tuple(_pg_text(v) for v in row) for row in psql(self.database_url, query)]
        with contextlib.closing(sqlite3.connect(self.db, timeout=30)) as c:
            return [tuple(_sqlite_text(v) for v in row) for row in c.execute(query).fetchall()]

    def start(self, timeout=20.0):
        assert BINARY.exists(), f"build first: {BINARY} missing (make test builds it)"
        self.log = open(self.db.with_suffix(".log"), "ab")
        self.proc = subprocess.Popen(
            [str(BINARY), "serve", "--port", str(self.port), *self.database_args(), "--admin-token", ADMIN_TOKEN,
             *(["--participant-secret", PARTICIPANT_SECRET] if self.participant_secret else []), *self.extra_args],
            cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT, env=self.env)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                tail = self.db.with_suffix(".log").read_bytes()[-2000:].decode(errors="replace")
                raise RuntimeError(f"server exited with {self.proc.returncode}; the end of its log:\n{tail}")
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


# The longest test files (minutes each), longest first. Under pytest-xdist (make py-test) a file runs
# in one worker and files are handed out in collection order: started last, the schemathesis file
# kept one worker busy for seven minutes after the others had finished.
LONGEST_FIRST = ["test_schemathesis.py", "test_engine_parity.py", "test_durability.py", "test_engines.py",
                 "test_room_pages.py", "test_stack_states.py", "test_beyond_stack.py"]


def pytest_collection_modifyitems(config, items):
    """The longest files first (LONGEST_FIRST); a file's own tests keep their order (the sort is stable)."""
    rank = {name: place for place, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


def pytest_generate_tests(metafunc):
    """Tests under Tests/System that use a server run once per engine; the rest get SQLite (the
    `db_engine` fixture's default). Not named `engine`: Tests/Browser has a browser fixture by that name."""
    if "db_engine" in metafunc.fixturenames and PER_ENGINE_DIR in Path(metafunc.definition.path).resolve().parents:
        metafunc.parametrize("db_engine", ENGINES, ids=ENGINES, indirect=True)


@pytest.fixture()
def db_engine(request):
    """The storage engine of `make_server`: "sqlite" or "postgres" (see pytest_generate_tests)."""
    return getattr(request, "param", "sqlite")


@pytest.fixture()
def make_server(tmpdir_path, db_engine):
    """Factory: make_server(extra_args=[...], env={...}, db_name=...) -> started Server (stopped at teardown).
    On PostgreSQL each db_name maps to one fresh database on the cluster, dropped at teardown."""
    servers = []
    databases = {}  # db_name -> postgres URL

    def factory(extra_args=(), env=None, db_name="deck.sqlite", participant_secret=True):
        url = None
        if db_engine == "postgres":
            assert POSTGRES_URL, "the postgres engine needs SWIPEDECK_TEST_POSTGRES_URL"
            if db_name not in databases:
                name = "sd_" + secrets.token_hex(8)
                psql(POSTGRES_URL, f"CREATE DATABASE {name}")
                databases[db_name] = with_database(POSTGRES_URL, name)
            url = databases[db_name]
        s = Server(tmpdir_path / db_name, free_port(), extra_args, env, database_url=url,
                   participant_secret=participant_secret)
        servers.append(s)
        for attempt in range(3):
            try:
                return s.start()
            except RuntimeError as e:
                # Another worker (pytest-xdist) may take the free port between its pick and the bind.
                if "in use" not in str(e) or attempt == 2:
                    raise
                s.port = free_port()
                s.base = f"http://127.0.0.1:{s.port}"

    yield factory
    for s in servers:
        s.stop()
    for url in databases.values():
        name = urllib.parse.urlsplit(url).path.lstrip("/")
        psql(POSTGRES_URL, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture()
def server(make_server):
    """A fresh server with the sample deck `getaways`."""
    return make_server()
