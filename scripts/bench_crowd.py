#!/usr/bin/env python3
"""A crowd in one room counts, while fakes stay bounded (issue 35): honest crowds and attacks in one
run against a server started here with default settings.

Starts `swipedeck serve` (release build when there is one) on a temporary SQLite file, with one
10-card deck per crowd and per attack, and runs at once:

- honest crowds, each on its own deck: consensus (each card liked at a rate drawn in
  [0.05, 0.95]), mixed tastes (rates in [0.3, 0.7]) and polarised (two camps: one likes the even
  cards at 90 %, the other the odd), of 30, 120 and 500 people on one /24 each (127.0.N.0/24), and
  2,000 across 20 /24s. People open the link over 10 s, take their credential (`obtain_participant`),
  and drag every card at 1.5 s or more a card with jitter, each with their own phone, hand and pace
  (a human-shaped drag: minimum-jerk path, a slight bow, jittered pointer events);
- attack (a), lockstep batches from one /24: as fast as it can, take a credential and send one
  batch deciding every card "right";
- attack (b), identical votes at a human pace from one /24: many identities, each dragging every
  card "right" 1.5-4 s apart, with human-shaped drags from one generator (the suites' `drag_trace`).

Then it reads every deck's results as the owner (which runs the lockstep check) and prints, per
crowd, the share of its accepted decisions that count (target >= 99 %) and the time to a credential
(p50, p99), and per attack the counted fake decisions per minute and their share (target <= 5 %).

Hooks for the join side (issue 35 item 1): `obtain_participant` is the one place a credential is
taken; it returns the credential and the seconds it took (today one POST, retried after the
`Retry-After` of a 429), so a proof of work or another join path slots in there, and the join
columns follow it.

Loopback only; bounded by --duration. Usage:
  python3 scripts/bench_crowd.py [--duration 60] [--crowds consensus-30,mixed-120,...] [--no-attacks]
"""
import argparse
import heapq
import http.client
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "Tests" / "System"))
sys.path.insert(0, str(ROOT / "Tests"))
sys.path.insert(0, str(ROOT / "scripts"))
from local_server import start_server  # noqa: E402
from sd_helpers import drag_trace  # noqa: E402 (the suites' human-shaped drag: attack (b)'s generator)

ADMIN = "bench-admin-token"
CARDS = 10


def binary():
    for build in ("release", "debug"):
        path = ROOT / ".build" / build / "swipedeck"
        if path.exists():
            return path
    sys.exit("build first: swift build -c release --product swipedeck")


class Client:
    """Keep-alive HTTP connections from chosen source addresses (one per address and thread)."""

    def __init__(self, port):
        self.port = port
        self.local = threading.local()

    def request(self, source, method, path, body=None, headers=None):
        conns = self.local.__dict__.setdefault("conns", {})
        for attempt in range(2):
            conn = conns.get(source)
            if conn is None:
                conn = conns[source] = http.client.HTTPConnection(
                    "127.0.0.1", self.port, timeout=30, source_address=(source, 0))
            h = {"Content-Type": "application/json"} if body is not None else {}
            h.update(headers or {})
            try:
                conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=h)
                r = conn.getresponse()
                data = r.read()
                return r.status, (json.loads(data) if data.startswith((b"{", b"[")) else data), r.headers
            except (http.client.HTTPException, OSError):
                conn.close()
                conns.pop(source, None)
                if attempt:
                    return 0, None, {}
        return 0, None, {}


def obtain_participant(client, source, deck, deadline):
    """The hook for joining: a participant credential for `deck` from `source`, and the seconds it
    took; (None, seconds) when none came before `deadline`. Today one POST of
    /api/v1/decks/{deck}/participants, asked again after the Retry-After of a 429."""
    started = time.time()
    while time.time() < deadline:
        status, body, headers = client.request(source, "POST", f"/api/v1/decks/{deck}/participants")
        if status == 201:
            return body["participant"], time.time() - started
        wait = float(headers.get("Retry-After", "1") or 1) if status == 429 else 0.5
        time.sleep(min(wait, max(0, deadline - time.time())))
    return None, time.time() - started


def make_deck(client, slug):
    cards = [{"title": f"{slug} {i}"} for i in range(CARDS)]
    status, _, _ = client.request("127.0.0.1", "POST", "/api/v1/decks",
                                  {"slug": slug, "title": slug, "profile": "standard", "cards": cards},
                                  {"Authorization": "Bearer " + ADMIN})
    assert status == 201, status
    status, page, _ = client.request("127.0.0.1", "GET", f"/api/v1/decks/{slug}/cards?limit=100")
    return [c["id"] for c in page["cards"]]


def human_drag(direction, hand, rng):
    """A human-shaped throw by one person's hand on their phone: minimum-jerk path, a slight bow,
    pointer events at the phone's frame rate with jitter; duration and reach vary around theirs."""
    w, h, frame, duration, reach = hand
    d = duration * math.exp(rng.gauss(0, 0.25))
    length = w * reach * math.exp(rng.gauss(0, 0.2))
    angle = rng.uniform(-0.25, 0.25) + (math.pi if direction == "left" else 0)
    bow = rng.uniform(0.02, 0.1) * rng.choice((1, -1))
    ex, ey, nx, ny = math.cos(angle) * length, math.sin(angle) * length, -math.sin(angle), math.cos(angle)
    t, x, y = [], [], []
    now = frame * rng.uniform(0.2, 1)
    while now < d:
        tau = min(now / d, 1)
        s = tau ** 3 * (10 - 15 * tau + 6 * tau * tau)
        side = bow * length * math.sin(math.pi * s)
        t.append(round(now, 2))
        x.append(round(ex * s + nx * side + rng.uniform(-0.3, 0.3), 2))
        y.append(round(ey * s + ny * side + rng.uniform(-0.3, 0.3), 2))
        now += frame * rng.uniform(0.8, 1.2)
    return {"t": t, "x": x, "y": y, "w": w, "h": h, "vw": w + 30, "vh": h + 300, "gx": w / 2, "gy": h * 0.6}


class Side:
    """What one crowd or attack sent and got."""

    def __init__(self, name, deck, kind):
        self.name, self.deck, self.kind = name, deck, kind
        self.lock = threading.Lock()
        self.people = self.minted = self.accepted = 0
        self.joins = []

    def add(self, **kw):
        with self.lock:
            for k, v in kw.items():
                if k == "join":
                    self.joins.append(v)
                else:
                    setattr(self, k, getattr(self, k) + v)


class Schedule:
    """Requests run at their time by a pool of workers (a crowd of 2,000 without 2,000 threads)."""

    def __init__(self, workers):
        self.queue, self.lock, self.ready = [], threading.Lock(), threading.Condition()
        self.pool = ThreadPoolExecutor(workers)
        self.count = 0

    def at(self, when, fn):
        with self.ready:
            self.count += 1
            heapq.heappush(self.queue, (when, self.count, fn))
            self.ready.notify()

    def run(self, until):
        while True:
            with self.ready:
                if not self.queue and time.time() >= until:
                    return
                if not self.queue:
                    self.ready.wait(0.05)
                    continue
                when, _, fn = self.queue[0]
                if when > time.time():
                    self.ready.wait(min(when - time.time(), 0.05))
                    continue
                heapq.heappop(self.queue)
            self.pool.submit(fn)


def person(client, schedule, side, cards, source, rates, rng, start, deadline):
    """One honest person: opens the link at `start`, takes a credential, drags every card in the
    deck's order at their own pace (>= 1.5 s a card), deciding by `rates` (card -> like rate)."""
    hand = (rng.uniform(300, 400), 0, rng.choice((1000 / 60, 1000 / 90, 1000 / 120)), rng.uniform(150, 650),
            rng.uniform(0.6, 1.1))
    hand = (hand[0], hand[0] * rng.uniform(1.3, 1.5), *hand[2:])
    pace = math.exp(math.log(1.5) + 0.5 * rng.gauss(0, 1))
    look = math.exp(math.log(2500) + 0.3 * rng.gauss(0, 1))
    state = {"card": 0, "me": None}

    def join():
        me, took = obtain_participant(client, source, side.deck, deadline)
        side.add(join=took, minted=1 if me else 0)
        if me:
            state["me"] = me
            schedule.at(time.time() + 1.5 + pace * math.exp(rng.gauss(0, 0.4)), swipe)

    def swipe():
        if time.time() > deadline or state["card"] >= len(cards):
            return
        card = cards[state["card"]]
        state["card"] += 1
        direction = "right" if rng.random() < rates[card] else "left"
        body = {"card": card, "direction": direction, "input": "drag", "participant": state["me"],
                "trace": human_drag(direction, hand, rng), "decisionMs": round(look * math.exp(rng.gauss(0, 0.4)), 1)}
        status, _, _ = client.request(source, "POST", f"/api/v1/decks/{side.deck}/swipes", body)
        side.add(accepted=1 if status == 201 else 0)
        schedule.at(time.time() + 1.5 + pace * math.exp(rng.gauss(0, 0.4)), swipe)

    side.add(people=1)
    schedule.at(start, join)


def crowd_rates(kind, cards, rng, camp):
    if kind == "consensus":
        return {c: rng.uniform(0.05, 0.95) for c in cards}
    if kind == "mixed":
        return {c: rng.uniform(0.3, 0.7) for c in cards}
    return {c: (0.9 if i % 2 == camp else 0.1) for i, c in enumerate(cards)}


def attack_a(client, side, cards, source, stop, rng):
    while not stop.is_set():
        me, _ = obtain_participant(client, source, side.deck, time.time() + 5)
        if not me:
            continue
        side.add(minted=1, people=1)
        items = [{"card": c, "direction": "right", "input": "drag", "participant": me, "trace": drag_trace("right", rng),
                  "decisionMs": round(rng.uniform(400, 1500), 1)} for c in cards]
        status, body, _ = client.request(source, "POST", f"/api/v1/decks/{side.deck}/swipes/batch", {"swipes": items})
        if status == 200:
            side.add(accepted=sum(1 for r in body["results"] if r["status"] == 201))


def attack_b(client, side, cards, source, stop, rng):
    while not stop.is_set():
        me, _ = obtain_participant(client, source, side.deck, time.time() + 5)
        if not me:
            continue
        side.add(minted=1, people=1)
        for c in cards:
            if stop.wait(1.5 + 1.5 * math.exp(rng.gauss(0, 0.6))):
                return
            body = {"card": c, "direction": "right", "input": "drag", "participant": me, "trace": drag_trace("right", rng),
                    "decisionMs": round(math.exp(math.log(2500) + 0.5 * rng.gauss(0, 1)), 1)}
            status, _, _ = client.request(source, "POST", f"/api/v1/decks/{side.deck}/swipes", body)
            side.add(accepted=1 if status == 201 else 0)


def percentile(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(p * len(s)))] if s else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--duration", type=float, default=60, help="seconds the crowds and attacks run (default 60)")
    ap.add_argument("--crowds", default="consensus-30,consensus-120,consensus-500,mixed-30,mixed-120,mixed-500,"
                    "polarised-30,polarised-120,polarised-500,consensus-2000",
                    help="comma-separated kind-size (a size of 2,000 spreads over 20 /24s)")
    ap.add_argument("--no-attacks", action="store_true")
    ap.add_argument("--threads-b", type=int, default=40, help="attack (b): identities voting at once")
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="swipedeck-crowd-"))
    log = open(work / "server.log", "w")
    server, base = start_server(binary(), work / "bench.sqlite", ["--admin-token", ADMIN, "--no-sample"],
                                name="bench_crowd", log=log)
    client = Client(int(base.rsplit(":", 1)[1]))
    try:
        rng = random.Random(2026)
        schedule = Schedule(64)
        started = time.time()
        deadline = started + args.duration
        sides = []
        net = 10
        for spec in args.crowds.split(","):
            kind, size = spec.split("-")
            size = int(size)
            side = Side(f"{kind} {size}", f"crowd-{kind}-{size}", "crowd")
            cards = make_deck(client, side.deck)
            networks = [net + k for k in range(20)] if size >= 2000 else [net]
            net += len(networks)
            rates = [crowd_rates(kind, cards, rng, camp) for camp in (0, 1)]
            for i in range(size):
                n = networks[i % len(networks)]
                source = f"127.0.{n}.{1 + (i // len(networks)) % 250}"
                person(client, schedule, side, cards, source, rates[i % 2 if kind == "polarised" else 0],
                       random.Random(rng.random()), started + rng.uniform(0, 10), deadline)
            sides.append(side)
        stop = threading.Event()
        threads = []
        if not args.no_attacks:
            for name, fn, count in (("attack (a) batches", attack_a, 5), ("attack (b) paced", attack_b, args.threads_b)):
                side = Side(name, "attack-" + name[8], "attack")
                cards = make_deck(client, side.deck)
                n = 200 + len(sides)
                threads += [threading.Thread(target=fn, args=(client, side, cards, f"127.0.{n}.{2 + i % 250}", stop,
                                                              random.Random(i)), daemon=True) for i in range(count)]
                sides.append(side)
        for t in threads:
            t.start()
        runner = threading.Thread(target=schedule.run, args=(deadline,), daemon=True)
        runner.start()
        time.sleep(max(0, deadline - time.time()))
        stop.set()
        runner.join(30)
        schedule.pool.shutdown(wait=True, cancel_futures=True)
        for t in threads:
            t.join(30)
        elapsed = time.time() - started

        owner = {"Authorization": "Bearer " + ADMIN}
        print(f"crowd benchmark: {elapsed:.0f} s, default settings, binary {binary().parent.name}")
        print(f"{'':22} {'people':>7} {'joined':>7} {'join p50':>9} {'join p99':>9} {'accepted':>9} {'counted':>8} "
              f"{'share':>7} {'counted/min':>11}")
        met = True
        for side in sides:
            status, results, _ = client.request("127.0.0.1", "GET", f"/api/v1/decks/{side.deck}/results", headers=owner)
            assert status == 200, status
            counted = results["swipes"]
            share = counted / side.accepted if side.accepted else float("nan")
            if side.kind == "crowd":
                met = met and side.accepted > 0 and share >= 0.99
            else:
                met = met and (side.accepted == 0 or share <= 0.05)
            p50, p99 = (f"{percentile(side.joins, q):>8.2f}s" if side.joins else f"{'-':>9}" for q in (0.5, 0.99))
            print(f"{side.name:22} {side.people:>7} {side.minted:>7} {p50} {p99} {side.accepted:>9} {counted:>8} "
                  f"{share:>7.1%} {counted / elapsed * 60:>11.0f}")
        print(f"targets: every crowd >= 99 % counted, attacks (a) (b) <= 5 % counted: {'met' if met else 'NOT met'}")
        return 0 if met else 1
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        if not os.environ.get("BENCH_KEEP"):
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
