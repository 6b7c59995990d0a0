#!/usr/bin/env python3
"""Vote stuffing against default settings, and an honest classroom beside it (issue: votes nobody
else can rewrite, stuffing bounded and caught).

Starts `swipedeck serve` (release build when there is one) on a temporary SQLite file with default
limits and two 10-card decks, then runs for DURATION seconds (default 60) at once:

- the attack, on deck `attack`, from five addresses of one /24 (127.0.0.2-6): as fast as it can,
  mint a participant credential (`POST …/participants`) and send a batch of 10 human-shaped drags,
  all "right" (the lockstep a script produces); the smart variant (STUFFING_PACED=1) paces each
  identity's drags 0.35 s apart in many threads, to slip under the human-pace rule;
- an honest classroom, on deck `class`, from 127.0.1.0/24 (another network: the room's NAT): 120
  people, each minting a credential and dragging the 10 cards at 0.5-0.9 s a card, deciding by their
  own taste (each card has a like rate; each person a bias).

Then it reads both decks' results as their owner (which also runs the lockstep check) and prints,
per side: credentials minted, swipes accepted (201), swipes counted in the ranking; the share of
the attack's swipes counted (target <= 5 %) and of the classroom's (target 100 %). Exit status 0
when both targets are met.

Loopback only; bounded by DURATION. Usage: python3 scripts/bench_stuffing.py [DURATION]
"""
import http.client
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "Tests" / "System"))
sys.path.insert(0, str(ROOT / "Tests"))
sys.path.insert(0, str(ROOT / "scripts"))
from local_server import start_server  # noqa: E402
from sd_helpers import drag_trace  # noqa: E402 (the suites' human-shaped drag)

ADMIN = "bench-admin-token"
DURATION = float(sys.argv[1]) if len(sys.argv) > 1 else 60.0
PACED = os.environ.get("STUFFING_PACED") == "1"


def binary():
    for build in ("release", "debug"):
        path = ROOT / ".build" / build / "swipedeck"
        if path.exists():
            return path
    sys.exit("build first: swift build -c release --product swipedeck")


class Client:
    """One keep-alive HTTP connection from a chosen source address."""

    def __init__(self, port, source):
        self.port, self.source = port, source
        self.conn = None

    def request(self, method, path, body=None, headers=None):
        for attempt in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30, source_address=(self.source, 0))
            h = {"Content-Type": "application/json"} if body is not None else {}
            h.update(headers or {})
            try:
                self.conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=h)
                r = self.conn.getresponse()
                data = r.read()
                return r.status, json.loads(data) if data.startswith((b"{", b"[")) else data
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
        return 0, None


def make_deck(client, slug):
    cards = [{"title": f"{slug} {i}"} for i in range(10)]
    status, _ = client.request("POST", "/api/v1/decks", {"slug": slug, "title": slug, "profile": "standard", "cards": cards},
                               {"Authorization": "Bearer " + ADMIN})
    assert status == 201, status
    status, page = client.request("GET", f"/api/v1/decks/{slug}/cards?limit=100")
    return [c["id"] for c in page["cards"]]


class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.minted = self.accepted = self.refused_mint = 0

    def add(self, minted=0, accepted=0, refused_mint=0):
        with self.lock:
            self.minted += minted
            self.accepted += accepted
            self.refused_mint += refused_mint


def attack(port, cards, source, stop, tally, rng):
    c = Client(port, source)
    while not stop.is_set():
        status, body = c.request("POST", "/api/v1/decks/attack/participants")
        if status != 201:
            tally.add(refused_mint=1)
            time.sleep(0.05)  # a script retries at once; a little sleep keeps the loop from spinning
            continue
        tally.add(minted=1)
        me = body["participant"]
        items = [{"card": card, "direction": "right", "input": "drag", "participant": me, "trace": drag_trace("right", rng),
                  "decisionMs": round(rng.uniform(400, 1500), 1)} for card in cards]
        if PACED:
            for item in items:
                if stop.is_set():
                    break
                status, _ = c.request("POST", "/api/v1/decks/attack/swipes", item)
                tally.add(accepted=1 if status == 201 else 0)
                time.sleep(0.35)
        else:
            status, body = c.request("POST", "/api/v1/decks/attack/swipes/batch", {"swipes": items})
            if status == 200:
                tally.add(accepted=sum(1 for r in body["results"] if r["status"] == 201))


def student(port, cards, source, rates, rng, tally, deadline):
    c = Client(port, source)
    status, body = c.request("POST", "/api/v1/decks/class/participants")
    if status != 201:
        tally.add(refused_mint=1)
        return
    tally.add(minted=1)
    me = body["participant"]
    bias = rng.uniform(-0.2, 0.2)
    for card in rng.sample(cards, len(cards)):
        if time.time() > deadline:
            return
        time.sleep(rng.uniform(0.5, 0.9))
        direction = "right" if rng.random() < rates[card] + bias else "left"
        body = {"card": card, "direction": direction, "input": "drag", "participant": me, "trace": drag_trace(direction, rng),
                "decisionMs": round(rng.uniform(500, 4000), 1)}
        status, _ = c.request("POST", "/api/v1/decks/class/swipes", body)
        tally.add(accepted=1 if status == 201 else 0)


def main():
    work = Path(tempfile.mkdtemp(prefix="swipedeck-stuffing-"))
    log = open(work / "server.log", "w")
    server, base = start_server(binary(), work / "bench.sqlite", ["--admin-token", ADMIN, "--no-sample"], name="bench_stuffing", log=log)
    port = int(base.rsplit(":", 1)[1])
    try:
        setup = Client(port, "127.0.2.9")
        attack_cards = make_deck(setup, "attack")
        class_cards = make_deck(setup, "class")
        rng = random.Random(2026)
        rates = {card: rng.uniform(0.2, 0.8) for card in class_cards}

        stop = threading.Event()
        attacked, taught = Tally(), Tally()
        deadline = time.time() + DURATION
        threads = [threading.Thread(target=attack, args=(port, attack_cards, f"127.0.0.{2 + i}", stop, attacked, random.Random(i)))
                   for i in range(5 if not PACED else 40)]
        # 120 students in 24 rows of 5, one after another in each row, from the room's NAT.
        def row(r):
            for k in range(5):
                student(port, class_cards, f"127.0.1.{1 + (r * 5 + k) % 250}", rates, random.Random(1000 + r * 5 + k), taught, deadline)
        threads += [threading.Thread(target=row, args=(r,)) for r in range(24)]
        started = time.time()
        for t in threads:
            t.start()
        time.sleep(max(0, deadline - time.time()))
        stop.set()
        for t in threads:
            t.join(60)
        elapsed = time.time() - started

        owner = {"Authorization": "Bearer " + ADMIN}
        counted = {}
        for deck in ("attack", "class"):
            status, results = setup.request("GET", f"/api/v1/decks/{deck}/results", headers=owner)
            assert status == 200, status
            counted[deck] = results["swipes"]
        attack_share = counted["attack"] / attacked.accepted if attacked.accepted else 0.0
        class_share = counted["class"] / taught.accepted if taught.accepted else 0.0
        mode = "paced 0.35 s per drag, 40 threads" if PACED else "batches of 10, 5 threads"
        print(f"stuffing benchmark: {elapsed:.0f} s, default settings, attack {mode} from 127.0.0.0/24")
        print(f"{'':12} {'minted':>8} {'mint 429':>9} {'accepted':>9} {'counted':>8} {'share':>7}")
        print(f"{'attack':12} {attacked.minted:>8} {attacked.refused_mint:>9} {attacked.accepted:>9} {counted['attack']:>8} {attack_share:>7.1%}")
        print(f"{'classroom':12} {taught.minted:>8} {taught.refused_mint:>9} {taught.accepted:>9} {counted['class']:>8} {class_share:>7.1%}")
        met = attack_share <= 0.05 and taught.accepted > 0 and counted["class"] == taught.accepted
        print(f"targets: attack counted <= 5 %: {'met' if attack_share <= 0.05 else 'NOT met'}; "
              f"classroom counted 100 %: {'met' if counted['class'] == taught.accepted else 'NOT met'}")
        return 0 if met else 1
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
