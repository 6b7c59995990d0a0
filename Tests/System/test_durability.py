"""Crash durability: a 2xx means committed, even when the server is killed with SIGKILL mid-traffic.

Each cycle restarts the server on the same database, drives 8 client threads that POST
distinct valid drag swipes as fast as they can, kills the server with `kill -9` after
0.5–1 s, restarts it, and checks that every acknowledged Idempotency-Key is stored, that
`PRAGMA integrity_check` is ok (SQLite), and that replaying each acknowledged request returns the
stored swipe (201, `Idempotent-Replayed: true`) without adding a row. Runs on each storage engine
(rows are read through `server.sql`).
"""
import http.client
import json
import os
import random
import threading
import time

from sd_helpers import card_ids, swipe_body

CYCLES = int(os.environ.get("SWIPEDECK_DURABILITY_CYCLES", "20"))
CLIENTS = 8
SWIPES = "/api/v1/decks/getaways/swipes"


class Client(threading.Thread):
    """Posts distinct valid swipes over one keep-alive connection until told to stop or the server dies."""

    def __init__(self, port, cycle, index, cards, stop):
        super().__init__(daemon=True)
        self.port, self.cycle, self.index, self.cards, self.stop = port, cycle, index, cards, stop
        self.acked = {}  # key -> (body bytes, response JSON)
        self.sent = 0
        self.unexpected = []

    def run(self):
        rng = random.Random(self.cycle * 1000 + self.index)
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        n = 0
        try:
            while not self.stop.is_set():
                participant = f"y{self.cycle}-c{self.index}-{n // len(self.cards)}"
                card = self.cards[n % len(self.cards)]
                key = f"dur-{self.cycle}-{self.index}-{n}"
                body = json.dumps(swipe_body(card, participant, rng.choice(["left", "right"]), rng)).encode()
                n += 1
                self.sent += 1
                conn.request("POST", SWIPES, body=body, headers={"Content-Type": "application/json", "Idempotency-Key": key})
                r = conn.getresponse()
                raw = r.read()
                if 200 <= r.status < 300:
                    self.acked[key] = (body, json.loads(raw))
                else:
                    self.unexpected.append((r.status, raw[:200]))
        except (OSError, http.client.HTTPException):
            pass  # the server was killed: whatever was not answered is not acknowledged
        finally:
            conn.close()


def db_rows(server):
    return int(server.sql("SELECT COUNT(*) FROM swipes")[0][0])


def test_acknowledged_swipes_survive_kill_9(make_server):
    server = make_server(extra_args=["--rate-participant", "0", "--rate-ip", "0"])
    cards = card_ids(server)
    assert len(cards) == 24
    log = server.db.with_suffix(".log")
    total_acked = 0
    rng = random.Random(42)
    for cycle in range(CYCLES):
        stop = threading.Event()
        clients = [Client(server.port, cycle, i, cards, stop) for i in range(CLIENTS)]
        for c in clients:
            c.start()
        time.sleep(rng.uniform(0.5, 1.0))
        server.kill9()
        stop.set()
        for c in clients:
            c.join(15)
            assert not c.is_alive()
            assert c.unexpected == [], c.unexpected[:3]
        acked = {k: v for c in clients for k, v in c.acked.items()}
        assert acked, f"cycle {cycle}: no swipe was acknowledged before the kill"
        total_acked += len(acked)

        server.start()  # the restart: recovery of the WAL happens here (SQLite; PostgreSQL recovers on its own)
        # Every acknowledged key is stored, and the database is intact.
        if server.engine == "sqlite":
            assert server.sql("PRAGMA integrity_check") == [("ok",)]
        stored = {row[0] for row in server.sql(f"SELECT id FROM swipes WHERE id LIKE 'dur-{cycle}-%'")}
        missing = set(acked) - stored
        assert not missing, f"cycle {cycle}: {len(missing)} acknowledged swipes lost, e.g. {sorted(missing)[:3]}"

        # Replaying every acknowledged request returns the stored answer and adds no row.
        before = db_rows(server)
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        for key, (body, first) in acked.items():
            conn.request("POST", SWIPES, body=body, headers={"Content-Type": "application/json", "Idempotency-Key": key})
            r = conn.getresponse()
            raw = r.read()
            assert r.status == 201, (key, r.status, raw[:200])
            assert r.getheader("Idempotent-Replayed") == "true", key
            assert json.loads(raw) == first, key
        conn.close()
        assert db_rows(server) == before
        # The restarted server carries the next cycle's traffic.

    if server.engine == "sqlite":
        text = log.read_text(errors="replace")
        assert "synchronous=" in text, "the effective PRAGMA synchronous is logged at start-up"
        assert text.count("synchronous=") >= CYCLES
    print(f"{CYCLES} kill -9 cycles, {total_acked} acknowledged swipes, all present after restart")
