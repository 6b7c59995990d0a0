"""Running it for real (issue 25, items 5–8): backup and restore while swipes are written,
/metrics, secrets from files and strict environment values, JSON access lines, and SIGTERM
under load. Suites using `make_server` run once per storage engine (see Tests/conftest.py).
"""
import hashlib
import hmac
import http.client
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from testenv import ADMIN_TOKEN, BINARY, ROOT, free_port
from sd_helpers import card_ids, swipe_body

SWIPES = "/api/v1/decks/getaways/swipes"
NO_LIMITS = ["--rate-participant", "0", "--rate-ip", "0"]
CHECKSUM = re.compile(r"SHA-256 (?:is )?([0-9a-f]{64})")


class Writer(threading.Thread):
    """Posts distinct valid swipes over a keep-alive connection (a new one after a drop) until
    stopped; records every acknowledged Idempotency-Key with the time its answer arrived."""

    def __init__(self, port, name, cards, stop):
        super().__init__(daemon=True)
        self.port, self.name, self.cards, self.stop = port, name, cards, stop
        self.acked = {}  # key -> monotonic time of the 2xx
        self.statuses = []
        self.dropped = 0

    def run(self):
        rng = random.Random(self.name)
        conn = None
        n = 0
        while not self.stop.is_set():
            participant = f"{self.name}-{n // len(self.cards)}"
            card = self.cards[n % len(self.cards)]
            key = f"{self.name}-{n}"
            n += 1
            body = json.dumps(swipe_body(card, participant, rng.choice(["left", "right"]), rng)).encode()
            try:
                conn = conn or http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                conn.request("POST", SWIPES, body=body, headers={"Content-Type": "application/json", "Idempotency-Key": key})
                r = conn.getresponse()
                r.read()
                self.statuses.append(r.status)
                if 200 <= r.status < 300:
                    self.acked[key] = time.monotonic()
            except (OSError, http.client.HTTPException):
                # Not answered, so not acknowledged; a stopping server refuses new connections.
                self.dropped += 1
                conn = None
                time.sleep(0.01)
        if conn:
            conn.close()


def run_cli(*args, env=None, timeout=120):
    return subprocess.run([str(BINARY), *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, **(env or {})))


def stored_keys(database, prefix):
    """Swipe ids starting with `prefix` in an SQLite file."""
    with sqlite3.connect(database) as c:
        return {row[0] for row in c.execute("SELECT id FROM swipes WHERE id LIKE ?", (prefix + "%",))}


# MARK: - Item 5: backup and restore

IMAGE_NAME = hashlib.sha256(b"\x89PNG image bytes").hexdigest() + ".png"

def test_backup_while_swipes_are_written_then_restore(make_server, tmpdir_path, db_engine):
    data = tmpdir_path / "data"
    server = make_server(extra_args=[*NO_LIMITS, "--data-dir", str(data)])
    # An uploaded image, as the image store keeps it (its content's SHA-256 names it).
    (data / "images").mkdir(parents=True, exist_ok=True)
    (data / "images" / IMAGE_NAME).write_bytes(b"\x89PNG image bytes")
    cards = card_ids(server)
    stop = threading.Event()
    writers = [Writer(server.port, f"bk{i}", cards, stop) for i in range(4)]
    for w in writers:
        w.start()
    time.sleep(1.0)
    began = time.monotonic()
    acked_before = {k for w in writers for k, t in list(w.acked.items()) if t <= began}
    backup = tmpdir_path / "backup.sqlite"
    out = run_cli("backup", "--to", str(backup), *server.database_args(), "--data-dir", str(data))
    time.sleep(0.3)  # writes go on after the snapshot too
    stop.set()
    for w in writers:
        w.join(15)
    assert out.returncode == 0, out.stderr
    assert acked_before, "no swipe was acknowledged before the backup began"
    assert all(s == 201 for w in writers for s in w.statuses), "every swipe is answered 201 during the backup"
    assert "swipes: " in out.stdout and "images: 1 files" in out.stdout, out.stdout
    backup_sum = CHECKSUM.search(out.stdout).group(1)

    missing = acked_before - stored_keys(backup, "bk")
    assert not missing, f"{len(missing)} swipes acknowledged before the backup are not in it, e.g. {sorted(missing)[:3]}"
    with sqlite3.connect(backup) as c:
        assert c.execute("PRAGMA integrity_check").fetchall() == [("ok",)]

    restored = tmpdir_path / "restored.sqlite"
    out = run_cli("restore", "--from", str(backup), "--to", str(restored))
    assert out.returncode == 0, out.stderr
    assert CHECKSUM.search(out.stdout).group(1) == backup_sum, out.stdout
    assert stored_keys(restored, "bk") == stored_keys(backup, "bk")
    assert (tmpdir_path / "restored.sqlite-data" / "images" / IMAGE_NAME).read_bytes() == b"\x89PNG image bytes"

    # A non-empty target is refused in a sentence, and left as it was.
    again = run_cli("restore", "--from", str(backup), "--to", str(restored))
    assert again.returncode != 0
    assert "The target is not empty" in again.stderr and "Restore into a new, empty database." in again.stderr, again.stderr
    assert stored_keys(restored, "bk") == stored_keys(backup, "bk")
    # An existing file is not overwritten by a backup either.
    over = run_cli("backup", "--to", str(backup), *server.database_args(), "--data-dir", str(data))
    assert over.returncode != 0 and "already exists" in over.stderr, over.stderr


def test_links_are_never_followed_by_the_image_server_backup_or_restore(make_server, tmpdir_path, db_engine):
    """Issue 37, rows 35 and 36: a restored `images/x.png -> /etc/passwd` was served to anyone as
    image/png, and `backup --to` wrote through a dangling link."""
    data = tmpdir_path / "data"
    images = data / "images"
    images.mkdir(parents=True)
    (images / IMAGE_NAME).write_bytes(b"\x89PNG image bytes")
    secret = tmpdir_path / "secret.txt"
    secret.write_text("root:x:0:0:not for anyone\n")
    planted = hashlib.sha256(b"planted").hexdigest() + ".png"
    (images / planted).symlink_to(secret)
    dangling = hashlib.sha256(b"dangling").hexdigest() + ".gif"
    (images / dangling).symlink_to(tmpdir_path / "nowhere" / "x.gif")
    server = make_server(extra_args=["--data-dir", str(data)])

    # The image server: the real image is served, a link of an image's name is not found.
    def fetch(name, method="GET"):
        req = urllib.request.Request(server.base + "/images/" + name, method=method)
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()
    assert fetch(IMAGE_NAME) == (200, b"\x89PNG image bytes")
    for name in (planted, dangling):
        status, body = fetch(name)
        assert status == 404 and b"not for anyone" not in body, (name, status, body)
        assert fetch(name, "HEAD")[0] == 404

    # backup: copies the regular image, never the links.
    backup = tmpdir_path / "backup.sqlite"
    out = run_cli("backup", "--to", str(backup), *server.database_args(), "--data-dir", str(data))
    assert out.returncode == 0, out.stderr
    assert "images: 1 files" in out.stdout and "skipped 2 entries" in out.stderr, (out.stdout, out.stderr)
    copied = backup.parent / "backup.sqlite-data" / "images"
    assert sorted(p.name for p in copied.iterdir()) == [IMAGE_NAME]

    # restore of a backup someone planted links in: regular files only, no link recreated or followed.
    (copied / planted).symlink_to(secret)
    (copied / "notes.txt").write_text("not an image")
    restored = tmpdir_path / "restored.sqlite"
    out = run_cli("restore", "--from", str(backup), "--to", str(restored))
    assert out.returncode == 0, out.stderr
    target = tmpdir_path / "restored.sqlite-data" / "images"
    assert sorted(p.name for p in target.iterdir()) == [IMAGE_NAME]
    assert not any(p.is_symlink() for p in target.iterdir())
    # A link waiting at the target is not written through either.
    (target / planted).symlink_to(tmpdir_path / "written-through.png")
    again = tmpdir_path / "again.sqlite"
    out = run_cli("restore", "--from", str(backup), "--to", str(again), "--data-dir", str(tmpdir_path / "restored.sqlite-data"))
    assert out.returncode == 0, out.stderr
    assert not (tmpdir_path / "written-through.png").exists()

    # backup --to a link (dangling, or to an existing file) or beside a linked data folder is refused.
    link = tmpdir_path / "link.sqlite"
    link.symlink_to(tmpdir_path / "elsewhere.sqlite")
    out = run_cli("backup", "--to", str(link), *server.database_args(), "--data-dir", str(data))
    assert out.returncode != 0 and "symbolic link" in out.stderr, out.stderr
    assert not (tmpdir_path / "elsewhere.sqlite").exists()
    beside = tmpdir_path / "beside.sqlite"
    (tmpdir_path / "beside.sqlite-data").symlink_to(tmpdir_path / "outside")
    out = run_cli("backup", "--to", str(beside), *server.database_args(), "--data-dir", str(data))
    assert out.returncode != 0 and "is not a folder" in out.stderr, out.stderr
    assert not beside.exists() and not (tmpdir_path / "outside").exists()


def forge_credential(secret, deck_id, subject):
    """A `codes` deck credential for `subject`, as ParticipantSigner.issue makes one, signed with
    `secret`: what anybody holding the participant-signing secret can make."""
    def mac(context, body, size):
        return hmac.new(secret.encode(), (context + body).encode(), hashlib.sha256).hexdigest()[:size * 2]
    body = "c" + f"{deck_id:08x}" + f"{int(time.time() * 1000):012x}" + mac(f"subject:{deck_id}:c:", subject, 8)
    return body + "-" + mac("credential:", body, 12)


def test_a_backup_carries_no_usable_secret(make_server, tmpdir_path, db_engine):
    """Issue 37, row 37: from a backup alone, 20 credentials were forged for codes never issued
    (all 201), secret links opened and webhook deliveries could be signed. The database keeps
    seeds (or sealed values) that are useless without the secret key, which stays outside it."""
    data = tmpdir_path / "data"
    server = make_server(extra_args=[*NO_LIMITS, "--data-dir", str(data)], participant_secret=False)
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    cards = [{"title": "a"}, {"title": "b"}]
    assert server.request("POST", "/api/v1/decks", {"slug": "cls", "title": "C", "cards": cards}, admin)[0] == 201
    assert server.request("PATCH", "/api/v1/decks/cls", {"access": "codes"}, admin)[0] == 200
    status, _, made = server.request("POST", "/api/v1/decks/cls/codes", {"count": 1}, admin)
    assert status == 201
    assert server.request("POST", "/api/v1/decks", {"slug": "hid", "title": "H", "cards": cards}, admin)[0] == 201
    assert server.request("PATCH", "/api/v1/decks/hid", {"access": "unlisted"}, admin)[0] == 200
    link = server.request("GET", "/api/v1/decks/hid/access", headers=admin)[2]["link"]
    status, _, hook = server.request("POST", "/api/v1/decks/hid/webhooks",
                                     {"url": "https://93.184.216.34/in", "events": ["deck.decided"]}, admin)
    assert status == 201
    # The real code works: its credential swipes.
    status, _, minted = server.request("POST", "/api/v1/decks/cls/participants", {"code": made["codes"][0]})
    assert status == 201
    card = int(server.sql("SELECT c.id FROM cards c JOIN decks d ON d.id = c.deckId WHERE d.slug = 'cls' ORDER BY c.id")[0][0])
    body = {"card": card, "direction": "right", "input": "api", "participant": minted["participant"]}
    assert server.request("POST", "/api/v1/decks/cls/swipes", body)[0] == 201

    backup = tmpdir_path / "backup.sqlite"
    out = run_cli("backup", "--to", str(backup), *server.database_args(), "--data-dir", str(data))
    assert out.returncode == 0, out.stderr
    with sqlite3.connect(backup) as c:
        stored_secret = c.execute("SELECT value FROM settings WHERE key = 'participantSecret'").fetchone()[0]
        stored_link = c.execute("SELECT accessSecret FROM decks WHERE slug = 'hid'").fetchone()[0]
        stored_hook = c.execute("SELECT secret FROM webhooks").fetchone()[0]
        deck_id = c.execute("SELECT id FROM decks WHERE slug = 'cls'").fetchone()[0]
    # 20 credentials for codes never issued, signed with what the backup holds: all refused.
    for i in range(20):
        forged = forge_credential(stored_secret, deck_id, f"ZZZZ{i:04d}")
        status, _, answer = server.request("POST", "/api/v1/decks/cls/swipes", dict(body, participant=forged))
        assert status == 403 and answer["error"]["code"] == "unknown_participant", (status, answer)
    # The stored link key opens nothing; the link the owner shares does. The hook's secret is not stored.
    assert server.request("GET", f"/d/hid?k={stored_link}")[0] == 403
    assert stored_link not in link and hook["secret"] != stored_hook and hook["secret"] not in backup.read_bytes().decode("latin-1")
    # The key stays beside the server's data, the owner's only; the backup's folder has no copy of it.
    key = data / "secret.key"
    assert key.exists() and (key.stat().st_mode & 0o777) == 0o600
    assert not any(p.name == "secret.key" for p in (tmpdir_path / "backup.sqlite-data").rglob("*"))
    assert key.read_text().strip() not in backup.read_bytes().decode("latin-1")


def test_key_rotate_keeps_every_secret_and_reset_replaces_them(make_server, tmpdir_path, db_engine):
    """`swipedeck key rotate` reseals the secrets under a new key (links and credentials keep
    working, the former key no longer starts the server); `key reset` makes new ones."""
    data = tmpdir_path / "data"
    server = make_server(extra_args=[*NO_LIMITS, "--data-dir", str(data)], participant_secret=False)
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    assert server.request("POST", "/api/v1/decks", {"slug": "hid", "title": "H", "cards": [{"title": "a"}]}, admin)[0] == 201
    assert server.request("PATCH", "/api/v1/decks/hid", {"access": "unlisted"}, admin)[0] == 200
    link = server.request("GET", "/api/v1/decks/hid/access", headers=admin)[2]["link"]
    minted = server.request("POST", "/api/v1/decks/getaways/participants", {})[2]["participant"]

    def works():
        # The secret link admits (a redirect to the deck, followed: 200); a wrong key is the invitation's 403.
        return (server.request("GET", link)[0] == 200,
                server.request("GET", f"/api/v1/decks/getaways/history?participant={minted}")[0] == 200)

    assert works() == (True, True)
    server.stop()
    rotated = data / "rotated.key"
    out = run_cli("key", "rotate", *server.database_args(), "--data-dir", str(data), "--new-key-file", str(rotated))
    assert out.returncode == 0 and "Resealed" in out.stdout, out.stderr
    assert (rotated.stat().st_mode & 0o777) == 0o600
    # The former key (the default file) no longer opens the database's secrets: the start stops.
    with pytest.raises(RuntimeError):
        server.start(timeout=10)
    assert "not the key this database's secrets are kept under" in server.db.with_suffix(".log").read_text()
    server.extra_args += ["--secret-key-file", str(rotated)]
    server.start()
    assert works() == (True, True), "rotation changes nothing anyone holds"
    server.stop()
    reset = data / "reset.key"
    out = run_cli("key", "reset", *server.database_args(), "--data-dir", str(data), "--new-key-file", str(reset))
    assert out.returncode == 0 and "Replaced" in out.stdout, out.stderr
    server.extra_args[-1] = str(reset)
    server.start()
    assert works() == (False, False), "a reset replaces the link's key and the signing secret"


# MARK: - Item 6: metrics through the CLI (MetricsSystem bootstrapped once)

def metrics_text(server, token):
    req = urllib.request.Request(server.base + "/metrics", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.read().decode()


def sample(text, series):
    for line in text.splitlines():
        if line.startswith(series + " "):
            return float(line.split(" ")[1])
    return None


def test_metrics_swipe_counter_equals_rows(make_server):
    token = "scrape-token-" + "x" * 20
    server = make_server(extra_args=[*NO_LIMITS, "--metrics-token", token])
    status, _, body = server.request("GET", "/metrics")
    assert status == 401 and body["error"]["code"] == "unauthorized"
    cards = card_ids(server)
    stop = threading.Event()
    writers = [Writer(server.port, f"mx{i}", cards, stop) for i in range(3)]
    for w in writers:
        w.start()
    time.sleep(1.0)
    stop.set()
    for w in writers:
        w.join(15)
    rows = int(server.sql("SELECT COUNT(*) FROM swipes")[0][0])
    assert rows == sum(len(w.acked) for w in writers) > 0
    text = metrics_text(server, token)
    assert sample(text, "swipedeck_swipes_stored_total") == rows
    assert sample(text, 'http_server_requests_total{route="/api/v1/decks/{deck}/swipes",method="POST",status="201"}') == rows
    assert sample(text, "swipedeck_swipe_batch_size_count") >= 1


# MARK: - Item 7: secrets from files, strict environment, JSON access lines

class Proc:
    """`swipedeck serve` started by hand (no --admin-token flag), with its output in a file."""

    def __init__(self, tmp, args=(), env=None):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = tmp / f"serve-{self.port}.log"
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            [str(BINARY), "serve", "--port", str(self.port), "--db", str(tmp / f"p{self.port}.sqlite"), *args],
            cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT, env=dict(os.environ, **(env or {})))
        deadline = time.time() + 20
        while time.time() < deadline:
            assert self.proc.poll() is None, self.log_path.read_text()
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=1):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("server did not start")

    def get(self, path, headers=None):
        req = urllib.request.Request(self.base + path, headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, dict(r.headers), r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), e.read().decode()

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(15)
        self.log.close()


@pytest.mark.parametrize("variable, value, sentence", [
    ("SWIPEDECK_RATE_IP", "abc", "SWIPEDECK_RATE_IP is 'abc': it must be a number"),
    ("SWIPEDECK_RATE_MINT", "-1", "SWIPEDECK_RATE_MINT is '-1': it must be a number"),
    ("SWIPEDECK_MAX_BODY", "2MB", "SWIPEDECK_MAX_BODY is '2MB': it must be a whole number"),
    ("SWIPEDECK_PASSWORD_CHECKS", "four", "SWIPEDECK_PASSWORD_CHECKS is 'four'"),
    ("SWIPEDECK_LOG_LEVEL", "loud", "SWIPEDECK_LOG_LEVEL is 'loud': it must be one of trace, debug"),
    ("SWIPEDECK_LOG_FORMAT", "xml", "SWIPEDECK_LOG_FORMAT is 'xml': it must be one of text, json"),
    ("SWIPEDECK_SYNCHRONOUS", "sometimes", "SWIPEDECK_SYNCHRONOUS is 'sometimes': it must be one of normal, full"),
    ("SWIPEDECK_HSTS", "maybe", "SWIPEDECK_HSTS is 'maybe': it must be 1 (on) or 0 (off)"),
    ("SWIPEDECK_MAX_STREAMS", "lots", "SWIPEDECK_MAX_STREAMS is 'lots': it must be a whole number"),
    ("SWIPEDECK_SSE_HEARTBEAT", "often", "SWIPEDECK_SSE_HEARTBEAT is 'often': it must be a number"),
    ("SWIPEDECK_TRUSTED_PROXIES", "not-an-address", "SWIPEDECK_TRUSTED_PROXIES:"),
    ("SWIPEDECK_BASE_PATH", "decks here", "SWIPEDECK_BASE_PATH is 'decks here': it must be a path such as /decks"),
    ("SWIPEDECK_PUBLIC_URL", "decks.example.org", "SWIPEDECK_PUBLIC_URL must be an http:// or https:// origin"),
    ("SWIPEDECK_METRICS_TOKEN", "short", "The metrics token is 5 characters long: use at least 16"),
    ("SWIPEDECK_ADMIN_TOKEN_FILE", "/nonexistent/token", "SWIPEDECK_ADMIN_TOKEN_FILE names /nonexistent/token, which cannot be read"),
    ("SWIPEDECK_DATABASE_URL_FILE", "/nonexistent/url", "SWIPEDECK_DATABASE_URL_FILE names /nonexistent/url, which cannot be read"),
])
def test_bad_environment_is_a_startup_error(tmpdir_path, variable, value, sentence):
    env = {variable: value}
    if variable != "SWIPEDECK_DATABASE_URL_FILE":
        env["SWIPEDECK_DB"] = str(tmpdir_path / "x.sqlite")
    out = run_cli("serve", "--port", "0", env=env, timeout=30)
    assert out.returncode != 0
    assert sentence in out.stderr, out.stderr
    assert "Swipedeck is serving" not in out.stdout


def test_empty_secret_file_and_both_forms_are_startup_errors(tmpdir_path):
    empty = tmpdir_path / "empty"
    empty.write_text("\n")
    out = run_cli("serve", "--port", "0", "--db", str(tmpdir_path / "x.sqlite"), env={"SWIPEDECK_METRICS_TOKEN_FILE": str(empty)}, timeout=30)
    assert out.returncode != 0 and f"SWIPEDECK_METRICS_TOKEN_FILE names {empty}, which is empty" in out.stderr, out.stderr
    token = tmpdir_path / "token"
    token.write_text("a-secret-from-a-file\n")
    out = run_cli("serve", "--port", "0", "--db", str(tmpdir_path / "x.sqlite"),
                  env={"SWIPEDECK_PARTICIPANT_SECRET": "x", "SWIPEDECK_PARTICIPANT_SECRET_FILE": str(token)}, timeout=30)
    assert out.returncode != 0 and "Both SWIPEDECK_PARTICIPANT_SECRET and SWIPEDECK_PARTICIPANT_SECRET_FILE are set" in out.stderr, out.stderr


def test_secrets_from_files(tmpdir_path):
    admin = tmpdir_path / "admin"
    admin.write_text("admin-token-from-a-file\n")  # the trailing newline an editor adds is trimmed
    metrics = tmpdir_path / "metrics"
    metrics.write_text("metrics-token-from-a-file-0123\n")
    url = tmpdir_path / "url"
    url.write_text(f"sqlite:{tmpdir_path / 'from-file.sqlite'}\n")
    p = Proc(tmpdir_path, env={"SWIPEDECK_ADMIN_TOKEN_FILE": str(admin), "SWIPEDECK_METRICS_TOKEN_FILE": str(metrics)})
    try:
        # A participant report is the deck manager's: 200 for the admin, 401 for anyone else.
        report = "/api/v1/decks/getaways/participants/nobody"
        assert p.get(report, {"Authorization": "Bearer admin-token-from-a-file"})[0] == 200
        assert p.get(report, {"Authorization": "Bearer admin-token-from-a-filex"})[0] == 401
        assert p.get(report)[0] == 401
        status, _, text = p.get("/metrics", {"Authorization": "Bearer metrics-token-from-a-file-0123"})
        assert status == 200 and "http_server_requests_total" in text
    finally:
        p.stop()
    # The database location from a file (no --db): the server creates the file it names.
    out = subprocess.Popen([str(BINARY), "serve", "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           env=dict(os.environ, SWIPEDECK_DATABASE_URL_FILE=str(url)))
    try:
        line = out.stdout.readline().decode()
        deadline = time.time() + 20
        while "serving on" not in line and time.time() < deadline:
            line = out.stdout.readline().decode()
        assert "serving on" in line
        assert (tmpdir_path / "from-file.sqlite").exists()
    finally:
        out.send_signal(signal.SIGTERM)
        out.wait(15)


def test_json_access_lines_with_request_ids(tmpdir_path):
    p = Proc(tmpdir_path, args=["--log-format", "json", "--admin-token", ADMIN_TOKEN])
    try:
        status, headers, _ = p.get("/d/getaways?participant=secret-in-query", {"X-Request-Id": "proxy-42.a:b_c"})
        assert status == 200 and headers["X-Request-Id"] == "proxy-42.a:b_c"
        status, headers, _ = p.get("/api/v1/decks/nope", {"X-Request-Id": "bad id with spaces"})
        assert status == 404
        generated = headers["X-Request-Id"]
        assert re.fullmatch(r"[0-9a-f]{16}", generated), generated
    finally:
        p.stop()
    lines = [json.loads(line) for line in p.log_path.read_text().splitlines() if line.startswith("{")]
    access = [l for l in lines if l["message"] == "access"]
    first = next(l for l in access if l.get("request_id") == "proxy-42.a:b_c")
    assert first["method"] == "GET" and first["path"] == "/d/getaways" and first["status"] == "200"
    assert first["client"] == "127.0.0.1" and float(first["duration_ms"]) >= 0 and first["level"] == "info"
    assert "secret-in-query" not in p.log_path.read_text()
    second = next(l for l in access if l.get("request_id") == generated)
    assert second["status"] == "404" and second["path"] == "/api/v1/decks/nope"


# MARK: - Item 8: SIGTERM under load

def test_sigterm_under_load_loses_no_acknowledged_swipe(make_server):
    server = make_server(extra_args=NO_LIMITS)
    cards = card_ids(server)
    stop = threading.Event()
    writers = [Writer(server.port, f"term{i}", cards, stop) for i in range(12)]
    for w in writers:
        w.start()
    time.sleep(1.5)
    proc = server.proc
    proc.send_signal(signal.SIGTERM)
    code = proc.wait(20)
    stop.set()
    for w in writers:
        w.join(15)
    server.proc = None
    assert code == 0, f"exit status {code} after SIGTERM"
    statuses = [s for w in writers for s in w.statuses]
    assert statuses and all(s < 500 for s in statuses), [s for s in statuses if s >= 500][:5]
    acked = {k for w in writers for k in w.acked}
    assert acked
    stored = {row[0] for row in server.sql("SELECT id FROM swipes WHERE id LIKE 'term%'")}
    missing = acked - stored
    assert not missing, f"{len(missing)} acknowledged swipes lost, e.g. {sorted(missing)[:3]}"
    # The server really was busy when told to stop: some requests went unanswered after it.
    print(f"{len(acked)} acknowledged, {sum(w.dropped for w in writers)} refused connections after SIGTERM")


def test_a_second_server_on_one_sqlite_file_is_refused(make_server, db_engine):
    """One server per SQLite file: a second `serve` of it would take swipes on a deck the first has
    locked or paced (it hears no edit of another process). It is refused at start with a sentence;
    once the first has stopped — even by kill -9 — the file serves again."""
    if db_engine != "sqlite":
        pytest.skip("several servers share PostgreSQL by design")
    server = make_server()
    out = run_cli("serve", "--port", "0", "--db", str(server.db), timeout=30)
    assert out.returncode != 0
    assert "one server per SQLite file" in out.stderr and f"(process {server.proc.pid})" in out.stderr, out.stderr
    assert "Swipedeck is serving" not in out.stdout
    server.kill9()
    server.start()
    assert server.request("GET", "/api/v1/decks/getaways")[0] == 200
