#!/usr/bin/env python3
"""A crowd in one room counts, while fakes stay bounded (issue 35): honest crowds and attacks in one
run against a server started here with default settings.

Starts `swipedeck serve` (release build when there is one) on a temporary SQLite file, with one
10-card deck per crowd and per attack, and runs at once:

- honest crowds, each on its own deck: consensus (each card liked at a rate drawn in
  [0.05, 0.95]), mixed tastes (rates in [0.3, 0.7]) and polarised (two camps: one likes the even
  cards at 90 %, the other the odd), of 30, 120 and 500 people on one /24 each (127.0.N.0/24), and
  2,000 across 20 /24s (its deck says 2,000 people are expected, `joinLimit`, as its owner would on
  the share page). People open the link over 10 s, join (`obtain_participant`: free within the
  budget, else a join puzzle solved on their device), and drag every card at 1.5 s or more a card
  with jitter, each with their own phone, hand and pace (a human-shaped drag: minimum-jerk path, a
  slight bow, jittered pointer events);
- attack (a), lockstep batches from one /24: as fast as it can, take a credential (paying puzzles)
  and send one batch deciding every card "right";
- attack (b), identical votes at a human pace from one /24: many identities, each dragging every
  card "right" 1.5-4 s apart, with human-shaped drags from one generator (the suites' `drag_trace`);
- attack (c), a host rotating /24s across 127.0.0.0/8 (four identities per /24), each fake joining
  (free or by puzzle) and deciding 1-3 cards with human-like drags and varied votes, in a process of
  its own (`bench_join.attacker`: THREADS threads), whose CPU gives (d), the attacker's core-seconds
  per counted identity.

Puzzles are solved with hashlib: the crowds' in a pool of processes (every phone brings its own
CPU, here the host's), the attacks' on the attacker's. Join time is measured on this host (from the
first request to a credential, the solve included); the phone estimate replaces the measured solve
by the puzzle's hashes at 13,000 a second (Chromium's WebCrypto on the phone profile, 4x CPU
throttle). With Playwright in the venv, a Chromium phone (390x844, 4x CPU throttle) then opens the
largest crowd on one /24's deck past its network's free budget while the attacks still run, and
the time its page took to solve the puzzle is printed (`deck-ready` to `deck-joined`).

Then it reads every deck's results as the owner (which runs the lockstep check) and prints, per
crowd, the share of its accepted decisions that count (target >= 99 %) and the time to a credential
(p50, p99; target p99 <= 5 s), and per attack the counted fake decisions per minute and their share
(targets: (a), (b) <= 5 % counted; (c) <= 600 counted decisions a minute). Exit status 0 when every
target is met.

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
import multiprocessing
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "Tests" / "System"))
sys.path.insert(0, str(ROOT / "Tests"))
sys.path.insert(0, str(ROOT / "scripts"))
from bench_join import attacker as rotating_attacker  # noqa: E402 (attack (c), also run alone by bench_join.py)
from join_puzzle import solve  # noqa: E402
from local_server import start_server  # noqa: E402
from sd_helpers import drag_trace  # noqa: E402 (the suites' human-shaped drag: attack (b)'s generator)

ADMIN = "bench-admin-token"
CARDS = 10
# Chromium's WebCrypto on the phone profile (4x CPU throttle), SHA-256 a second (JoinDifficulty's doc).
PHONE_HASHES_PER_SECOND = 13_000


def binary():
    for build in ("release", "debug"):
        path = ROOT / ".build" / build / "swipedeck"
        if path.exists():
            return path
    sys.exit("build first: swift build -c release --product swipedeck")


class Client:
    """One keep-alive HTTP connection per source address, as one phone holds one: the people sharing an
    address take turns on it (a connection per thread and address held tens of thousands open)."""

    def __init__(self, port):
        self.port = port
        self.lock = threading.Lock()
        self.conns = {}  # source -> [lock, connection or None]

    def request(self, source, method, path, body=None, headers=None):
        with self.lock:
            slot = self.conns.setdefault(source, [threading.Lock(), None])
        with slot[0]:
            for attempt in range(2):
                if slot[1] is None:
                    slot[1] = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30, source_address=(source, 0))
                h = {"Content-Type": "application/json"} if body is not None else {}
                h.update(headers or {})
                try:
                    slot[1].request(method, path, body=json.dumps(body) if body is not None else None, headers=h)
                    r = slot[1].getresponse()
                    data = r.read()
                    return r.status, (json.loads(data) if data.startswith((b"{", b"[")) else data), r.headers
                except (http.client.HTTPException, OSError):
                    slot[1].close()
                    slot[1] = None
                    if attempt:
                        return 0, None, {}
            return 0, None, {}


def obtain_participant(client, source, deck, deadline, solvers):
    """The hook for joining: a participant credential for `deck` from `source`, as a device joins.
    `POST /api/v1/decks/{deck}/participants` is free within the budget; past it (429) the device asks
    for a join puzzle, solves it in `solvers` (a process pool) and pays with the solution (a refused
    one, stale or used, is followed by a fresh puzzle). Returns (credential or None when none came
    before `deadline`, seconds it took, SHA-256 tried, seconds spent solving)."""
    started = time.time()
    hashes, solving = 0, 0.0
    while time.time() < deadline:
        status, body, headers = client.request(source, "POST", f"/api/v1/decks/{deck}/participants")
        if status == 201:
            return body["participant"], time.time() - started, hashes, solving
        if status == 429:
            for _ in range(3):
                status, puzzle, _ = client.request(source, "POST", f"/api/v1/decks/{deck}/puzzles")
                if status != 201:
                    break
                began = time.time()
                number, tried = solvers.submit(solve, puzzle).result()
                solving += time.time() - began
                hashes += tried
                status, body, _ = client.request(source, "POST", f"/api/v1/decks/{deck}/participants",
                                                 {"puzzle": dict(puzzle, number=number)})
                if status == 201:
                    return body["participant"], time.time() - started, hashes, solving
                if status not in (403, 409):
                    break
        time.sleep(min(0.5, max(0, deadline - time.time())))
    return None, time.time() - started, hashes, solving


def make_deck(client, slug, expected=None):
    cards = [{"title": f"{slug} {i}"} for i in range(CARDS)]
    owner = {"Authorization": "Bearer " + ADMIN}
    status, _, _ = client.request("127.0.0.1", "POST", "/api/v1/decks",
                                  {"slug": slug, "title": slug, "profile": "standard", "cards": cards}, owner)
    assert status == 201, status
    if expected:  # the people expected, as the owner says on the share page
        status, deck, _ = client.request("127.0.0.1", "PATCH", f"/api/v1/decks/{slug}", {"joinLimit": expected}, owner)
        assert status == 200 and deck["joinLimit"] == expected, (status, deck)
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
        self.joins, self.phone = [], []
        self.refused = {}

    def refuse(self, status, answer):
        """A decision the server did not take, by status and error code."""
        error = answer.get("error") if isinstance(answer, dict) else None  # API errors: {"error":{"code":…}}
        code = error.get("code", "") if isinstance(error, dict) else ""
        with self.lock:
            key = f"{status} {code}".strip()
            self.refused[key] = self.refused.get(key, 0) + 1

    def add(self, **kw):
        with self.lock:
            for k, v in kw.items():
                if k in ("joins", "phone"):
                    getattr(self, k).append(v)
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


def person(client, schedule, solvers, side, cards, source, rates, rng, start, deadline):
    """One honest person: opens the link at `start`, takes a credential, drags every card in the
    deck's order at their own pace (>= 1.5 s a card), deciding by `rates` (card -> like rate)."""
    hand = (rng.uniform(300, 400), 0, rng.choice((1000 / 60, 1000 / 90, 1000 / 120)), rng.uniform(150, 650),
            rng.uniform(0.6, 1.1))
    hand = (hand[0], hand[0] * rng.uniform(1.3, 1.5), *hand[2:])
    pace = math.exp(math.log(1.5) + 0.5 * rng.gauss(0, 1))
    look = math.exp(math.log(2500) + 0.3 * rng.gauss(0, 1))
    state = {"card": 0, "me": None}

    def join():
        me, took, hashes, solving = obtain_participant(client, source, side.deck, deadline, solvers)
        side.add(minted=1 if me else 0)
        if me:
            side.add(joins=took, phone=took - solving + hashes / PHONE_HASHES_PER_SECOND)
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
        status, answer, _ = client.request(source, "POST", f"/api/v1/decks/{side.deck}/swipes", body)
        side.add(accepted=1 if status == 201 else 0)
        if status != 201:
            side.refuse(status, answer)
        schedule.at(time.time() + 1.5 + pace * math.exp(rng.gauss(0, 0.4)), swipe)

    side.add(people=1)
    schedule.at(start, join)


def crowd_rates(kind, cards, rng, camp):
    if kind == "consensus":
        return {c: rng.uniform(0.05, 0.95) for c in cards}
    if kind == "mixed":
        return {c: rng.uniform(0.3, 0.7) for c in cards}
    return {c: (0.9 if i % 2 == camp else 0.1) for i, c in enumerate(cards)}


def attack_a(client, side, cards, source, stop, rng, solvers):
    while not stop.is_set():
        me, _, _, _ = obtain_participant(client, source, side.deck, time.time() + 5, solvers)
        if not me:
            continue
        side.add(minted=1, people=1)
        items = [{"card": c, "direction": "right", "input": "drag", "participant": me, "trace": drag_trace("right", rng),
                  "decisionMs": round(rng.uniform(400, 1500), 1)} for c in cards]
        status, body, _ = client.request(source, "POST", f"/api/v1/decks/{side.deck}/swipes/batch", {"swipes": items})
        if status == 200:
            side.add(accepted=sum(1 for r in body["results"] if r["status"] == 201))


def attack_b(client, side, cards, source, stop, rng, solvers):
    while not stop.is_set():
        me, _, _, _ = obtain_participant(client, source, side.deck, time.time() + 5, solvers)
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


def phone_puzzle_times(base, deck, visits):
    """Seconds a Chromium phone (390x844, touch, 4x CPU throttle) took to solve the deck page's join puzzle,
    `visits` fresh visitors from 127.0.0.1 (at most 3 × visits tries) after its network's free budget is spent (`deck-ready` to
    `deck-joined`, the page's own marks); None without Playwright."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    client = Client(int(base.rsplit(":", 1)[1]))
    times = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        try:
            for _ in range(3 * visits):
                if len(times) == visits:
                    break
                # Spend what refilled of 127.0.0.0/24's free joins, so the page comes with a puzzle.
                while client.request("127.0.0.1", "POST", f"/api/v1/decks/{deck}/participants")[0] == 201:
                    pass
                ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
                try:
                    page = ctx.new_page()
                    ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
                    page.goto(f"{base}/d/{deck}")
                    if page.locator("#join-puzzle").count() == 0:
                        continue  # a free join refilled meanwhile: another visitor
                    page.wait_for_function("performance.getEntriesByName('deck-joined').length === 1", timeout=60_000)
                    times.append(page.evaluate("""() => performance.getEntriesByName('deck-joined')[0].startTime
                        - performance.getEntriesByName('deck-ready')[0].startTime""") / 1000)
                finally:
                    ctx.close()
        finally:
            browser.close()
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--duration", type=float, default=60, help="seconds the crowds and attacks run (default 60)")
    ap.add_argument("--crowds", default="consensus-30,consensus-120,consensus-500,mixed-30,mixed-120,mixed-500,"
                    "polarised-30,polarised-120,polarised-500,consensus-2000",
                    help="comma-separated kind-size (a size of 2,000 spreads over 20 /24s)")
    ap.add_argument("--no-attacks", action="store_true")
    ap.add_argument("--threads-b", type=int, default=40, help="attack (b): identities voting at once")
    ap.add_argument("--threads-c", type=int, default=16, help="attack (c): identities joining at once")
    ap.add_argument("--phone-visits", type=int, default=5, help="Chromium phone visits timing the page's puzzle")
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="swipedeck-crowd-"))
    log = open(work / "server.log", "w")
    server, base = start_server(binary(), work / "bench.sqlite", ["--admin-token", ADMIN, "--no-sample"],
                                name="bench_crowd", log=log)
    port = int(base.rsplit(":", 1)[1])
    client = Client(port)
    crowd_solvers = ProcessPoolExecutor(os.cpu_count() or 2)
    attack_solvers = ProcessPoolExecutor(1)
    try:
        crowd_solvers.submit(int, 0).result()  # the pools are up before the first person arrives
        attack_solvers.submit(int, 0).result()
        rng = random.Random(2026)
        schedule = Schedule(64)
        sides = []
        net = 10
        plans = []
        for spec in args.crowds.split(","):
            kind, size = spec.split("-")
            size = int(size)
            side = Side(f"{kind} {size}", f"crowd-{kind}-{size}", "crowd")
            cards = make_deck(client, side.deck, expected=size if size > 600 else None)
            networks = [net + k for k in range(20)] if size >= 2000 else [net]
            net += len(networks)
            plans.append((side, kind, size, cards, networks))
            sides.append(side)
        attacks = [] if args.no_attacks else [("attack (a) batches", attack_a, 5), ("attack (b) paced", attack_b, args.threads_b)]
        attack_sides = []
        for name, fn, count in attacks:
            side = Side(name, "attack-" + name[8], "attack")
            attack_sides.append((side, fn, count, make_deck(client, side.deck)))
            sides.append(side)
        rotating = None
        if not args.no_attacks:
            rotating = Side("attack (c) rotating", "attack", "rotating")  # bench_join.attacker's deck
            rotating_cards = make_deck(client, rotating.deck)
            sides.append(rotating)

        started = time.time()
        deadline = started + args.duration
        for side, kind, size, cards, networks in plans:
            rates = [crowd_rates(kind, cards, rng, camp) for camp in (0, 1)]
            for i in range(size):
                n = networks[i % len(networks)]
                source = f"127.0.{n}.{1 + (i // len(networks)) % 250}"
                person(client, schedule, crowd_solvers, side, cards, source, rates[i % 2 if kind == "polarised" else 0],
                       random.Random(rng.random()), started + rng.uniform(0, 10), deadline)
        stop = threading.Event()
        threads = []
        for i, (side, fn, count, cards) in enumerate(attack_sides):
            n = 200 + i
            threads += [threading.Thread(target=fn, args=(client, side, cards, f"127.0.{n}.{2 + k % 250}", stop,
                                                          random.Random(k), attack_solvers), daemon=True)
                        for k in range(count)]
        queue, procs = multiprocessing.Queue(), []
        if rotating:
            procs = [multiprocessing.Process(target=rotating_attacker,
                                             args=(port, rotating_cards, args.duration, args.threads_c, 0, queue))]
        for t in procs + threads:  # fork the attacker before this process runs threads of its own
            t.start()
        runner = threading.Thread(target=schedule.run, args=(deadline,), daemon=True)
        runner.start()
        # A latecomer's phone while the attacks run: the crowds have joined by now (they open over 10 s).
        time.sleep(min(60, args.duration / 2))
        largest = max((plan for plan in plans if len(plan[4]) == 1), key=lambda plan: plan[2], default=None)
        phone = (phone_puzzle_times(base, largest[0].deck, args.phone_visits)
                 if args.phone_visits and largest else None)
        time.sleep(max(0, deadline - time.time()))
        stop.set()
        runner.join(30)
        schedule.pool.shutdown(wait=True, cancel_futures=True)
        for t in threads:
            t.join(30)
        tally = queue.get(timeout=120) if procs else None
        for p in procs:
            p.join(30)
        if rotating and tally:
            rotating.add(people=tally["identities"], minted=tally["identities"], accepted=tally["accepted"])
        elapsed = time.time() - started

        owner = {"Authorization": "Bearer " + ADMIN}
        print(f"crowd benchmark: {elapsed:.0f} s, default settings, binary {binary().parent.name}")
        print(f"{'':22} {'people':>7} {'joined':>7} {'join p50':>9} {'join p99':>9} {'phone p99':>9} {'accepted':>9} "
              f"{'counted':>8} {'share':>7} {'counted/min':>11}")
        met = True
        for side in sides:
            status, results, _ = client.request("127.0.0.1", "GET", f"/api/v1/decks/{side.deck}/results", headers=owner)
            assert status == 200, status
            counted = results["swipes"]
            share = counted / side.accepted if side.accepted else float("nan")
            per_minute = counted / elapsed * 60
            if side.kind == "crowd":
                met = met and side.accepted > 0 and share >= 0.99 and percentile(side.joins, 0.99) <= 5
                met = met and side.minted == side.people
            elif side.kind == "attack":
                met = met and (side.accepted == 0 or share <= 0.05)
            else:
                met = met and per_minute <= 600
            p50, p99 = (f"{percentile(side.joins, q):>8.2f}s" if side.joins else f"{'-':>9}" for q in (0.5, 0.99))
            phone_p99 = f"{percentile(side.phone, 0.99):>8.2f}s" if side.phone else f"{'-':>9}"
            print(f"{side.name:22} {side.people:>7} {side.minted:>7} {p50} {p99} {phone_p99} {side.accepted:>9} "
                  f"{counted:>8} {share:>7.1%} {per_minute:>11.0f}")
            if side.refused:
                print(f"{'':22} refused: " + ", ".join(f"{k} x{v}" for k, v in sorted(side.refused.items())))
            people = results.get("people") or {}
            if side.kind == "crowd" and counted < side.accepted:
                # Why decisions did not count, as the owner's results say (Who is counted).
                for group in people.get("groups", []):
                    print(f"{'':22} {group['status']} {group['people']}: {group['reason']}")
            if side.kind == "rotating" and tally:
                identities = results["participants"]
                print(f"{'':22} (d) {tally['free']} free joins, {tally['puzzles']} puzzles "
                      f"({tally['hashes'] / max(1, tally['puzzles']):,.0f} hashes each), {identities} identities counted; "
                      f"attacker CPU {tally['cpu']:.0f} core-s: "
                      f"{tally['cpu'] / identities if identities else float('inf'):.3f} core-s per counted identity")
        if phone is not None:
            print(f"phone puzzle (Chromium 390x844, 4x CPU throttle, {largest[0].name}'s deck during the attacks): "
                  + (", ".join(f"{t:.2f}" for t in phone) + " s" if phone else "no puzzle served"))
        print("targets: every crowd joined, p99 <= 5 s, >= 99 % counted; attacks (a) (b) <= 5 % counted; "
              f"(c) <= 600 counted decisions a minute: {'met' if met else 'NOT met'}")
        return 0 if met else 1
    finally:
        crowd_solvers.shutdown(cancel_futures=True)
        attack_solvers.shutdown(cancel_futures=True)
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
