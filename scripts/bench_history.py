"""One participant with 10,000 swipes: how long their history and the owner's report of them take.

Issue 14 asks for a participant's history of 10,000 swipes in at most 20 ms. This script starts the
release server on an empty database, creates a deck of CARDS cards through the API (admin token),
stores one signed participant's drag swipe on every card through the batch API (100 per request,
each a realistic 30-60 sample trace, validated by the server like any swipe), and then times, one
request at a time over a kept-alive connection, ROUNDS requests of each:

- `GET /api/v1/decks/{deck}/history?participant=…`: the swiper's history (the newest 500 live
  swipes with their cards; the page `/d/{deck}/history` reads the same);
- `GET /api/v1/decks/{deck}/participants/{id}`: the owner's report of that participant (kinds,
  suspect reasons, rejections and exclusions over all their swipes in the deck).

It prints the median, p95 and largest time of each (wall time in this process, loopback), and the
rows the history returned. Run by `scripts/bench.sh`; alone:

    python3 scripts/bench_history.py --binary .build/release/swipedeck [--cards 10000] [--rounds 50]
"""
import argparse
import hashlib
import hmac
import http.client
import json
import os
import random
import shutil
import socket
import sqlite3
import statistics
import subprocess
import tempfile
import time

SECRET = "bench-participant-secret-0123456789"
ADMIN = "bench-token"


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def signed(body):
    """A credential as the server signs them (ParticipantSigner: HMAC-SHA256 over "credential:" + body, 24 hex)."""
    mac = hmac.new(SECRET.encode(), ("credential:" + body).encode(), hashlib.sha256).hexdigest()[:24]
    return f"{body}-{mac}"


def identity(deck_id, body):
    """The identity a device credential acts as in a deck, which owners' reports name
    (ParticipantSigner.identity: "q" and 128 bits of HMAC-SHA256 over "identity:DECK:" + body)."""
    return "q" + hmac.new(SECRET.encode(), f"identity:{deck_id}:{body}".encode(), hashlib.sha256).hexdigest()[:32]


def trace(rng, direction):
    """The same shape of drag as scripts/bench_swipes.lua: eased, jittered, 30-60 samples."""
    count = 30 + rng.randint(0, 30)
    sign = 1 if direction == "right" else -1
    reach = (0.5 + rng.random() * 0.4) * 320
    drift = (rng.random() - 0.5) * 60
    now = rng.random() * 4
    t = []
    x = []
    y = []
    for i in range(1, count + 1):
        p = i / count
        ease = p * p * (3 - 2 * p)
        t.append(round(now, 2))
        x.append(round(sign * reach * ease + (rng.random() - 0.5) * 1.2, 2))
        y.append(round(drift * ease + (rng.random() - 0.5) * 1.2, 2))
        now += 12 + rng.random() * 8
    return {"t": t, "x": x, "y": y, "w": 320, "h": 440, "vw": 390, "vh": 844,
            "gx": round(40 + rng.random() * 240, 1), "gy": round(60 + rng.random() * 320, 1)}


class Client:
    def __init__(self, port):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, method, path, body=None, headers=None):
        data = json.dumps(body).encode() if body is not None else None
        all_headers = {"Content-Type": "application/json"} if data else {}
        all_headers.update(headers or {})
        self.connection.request(method, path, body=data, headers=all_headers)
        response = self.connection.getresponse()
        payload = response.read()
        if response.status >= 300:
            raise SystemExit(f"bench_history: {method} {path} answered {response.status}: {payload[:300]!r}")
        return json.loads(payload) if payload else None

    def timed(self, path, headers=None):
        started = time.perf_counter()
        answer = self.call("GET", path, headers=headers)
        return (time.perf_counter() - started) * 1000, answer


def summary(times):
    ordered = sorted(times)
    p95 = ordered[max(0, int(round(len(ordered) * 0.95)) - 1)]
    return f"median {statistics.median(ordered):6.2f} ms   p95 {p95:6.2f} ms   max {ordered[-1]:6.2f} ms"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--cards", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="swipedeck-history-")
    port = free_port()
    database = os.path.join(work, "h.sqlite")
    log = open(os.path.join(work, "server.log"), "w")
    server = subprocess.Popen(
        [args.binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--db", database,
         "--admin-token", ADMIN, "--participant-secret", SECRET,
         "--rate-participant", "0", "--rate-ip", "0", "--rate-mint", "0"],
        stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + 30
        while True:
            try:
                Client(port).call("GET", "/healthz")
                break
            except (ConnectionError, OSError):
                if time.time() > deadline or server.poll() is not None:
                    raise SystemExit("bench_history: the server did not start (see " + log.name + ")")
                time.sleep(0.05)

        client = Client(port)
        admin = {"Authorization": f"Bearer {ADMIN}"}
        cards = [{"title": f"Card {i}"} for i in range(1, args.cards + 1)]
        deck = {"slug": "history-bench", "title": "History bench", "cards": cards}
        client.call("POST", "/api/v1/decks", deck, admin)
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
            card_ids = [row[0] for row in db.execute(
                "SELECT c.id FROM cards c JOIN decks d ON d.id = c.deckId WHERE d.slug = 'history-bench' ORDER BY c.position")]
            deck_id = db.execute("SELECT id FROM decks WHERE slug = 'history-bench'").fetchone()[0]
        assert len(card_ids) == args.cards, len(card_ids)

        participant = signed("history-1")
        rng = random.Random(14)
        started = time.perf_counter()
        for first in range(0, len(card_ids), 100):
            batch = []
            for offset, card in enumerate(card_ids[first:first + 100]):
                direction = "right" if rng.random() < 0.5 else "left"
                batch.append({"idempotencyKey": f"history-{first + offset}", "card": card, "direction": direction,
                              "input": "drag", "participant": participant,
                              "decisionMs": 300 + rng.randint(0, 4700), "trace": trace(rng, direction)})
            answer = client.call("POST", "/api/v1/decks/history-bench/swipes/batch", {"swipes": batch})
            refused = [r for r in answer["results"] if r.get("status") not in (200, 201)]
            if refused:
                raise SystemExit(f"bench_history: swipes refused: {refused[:3]}")
        stored = time.perf_counter() - started
        print(f"   {len(card_ids)} swipes by one participant stored through the batch API in {stored:.1f} s")

        history_path = f"/api/v1/decks/history-bench/history?participant={participant}"
        report_path = f"/api/v1/decks/history-bench/participants/{identity(deck_id, 'history-1')}"
        history_times = []
        report_times = []
        rows = 0
        kinds = {}
        for _ in range(args.rounds):
            elapsed, answer = client.timed(history_path)
            history_times.append(elapsed)
            rows = len(answer["swipes"])
            elapsed, answer = client.timed(report_path, admin)
            report_times.append(elapsed)
            kinds = answer["kinds"]
        live = sum(kinds.values())
        if live != len(card_ids):
            raise SystemExit(f"bench_history: the report counts {live} live swipes, not {len(card_ids)}")
        print(f"   history ({rows} newest of {live}), {args.rounds} requests:   {summary(history_times)}")
        print(f"   owner's participant report ({live} swipes):     {summary(report_times)}")
    finally:
        server.terminate()
        server.wait()
        log.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
