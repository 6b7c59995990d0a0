#!/usr/bin/env python3
"""Match rooms under load (issue 28's benchmark), against a real `swipedeck serve` on loopback.

Three parts, each on a fresh server with a temporary SQLite file (release build when there is one):

(a) latency: ROOMS rooms of MEMBERS members on a CARDS-card deck swipe concurrently over HTTP (every
    member its own keep-alive connection, the room's order from `GET …/cards?room=`), with every
    member's events stream (`GET /api/v1/rooms/{code}/events`) open. For every match event at every
    member it takes the time from the 201 of the match's deciding swipe (the last like the match
    names) to the event's arrival: p50/p99 (target p99 <= 1 s). Beside it the swipes/s of the run, and
    of the same members swiping the same cards without rooms or streams (the no-room figure). With
    --pace S each member swipes S seconds (± half) after their last, as people do, instead of as
    fast as the server answers (then the no-room run is left out: its rate is the pace's).
(b) memory: STREAMS open events streams on one server (rooms of up to 50 members, one stream each),
    opened 200 at a time (--at-once: all in the same instant): the server's RSS before and 12 s
    after (one MemoryTrimmer interval), and per stream (target <= 300 MB in all).
(c) matches per swipe: SIM rooms of MEMBERS members with known preferences (each card an appeal,
    each member likes it with that probability, a little personal taste on top) swipe in turns,
    once with the shared order and once with "liked by others first": matches found per swipe and
    swipes until the first match, through the real server's deal.

Everything is bounded by its flags; a small run checks the script (make bench-rooms runs the real one):
    python3 scripts/bench_rooms.py --rooms 20 --streams 200 --sim 10
Loopback only (many 127.0.0.x source addresses, so per-address limits hold). Prints its figures.
"""
import argparse
import asyncio
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "Tests" / "System"))
sys.path.insert(0, str(ROOT / "Tests"))
sys.path.insert(0, str(ROOT / "scripts"))
from local_server import start_server  # noqa: E402
from sd_helpers import drag_trace  # noqa: E402 (the suites' human-shaped drag: never suspect)

ADMIN = "bench-admin-token"
# Source addresses the clients spread over, each in a /24 of its own (127.1.0.2, 127.1.1.2, …): a
# server's per-address and per-network limits (room creation, room streams) count each apart.
SOURCES = [f"127.{1 + i // 250}.{i % 250}.2" for i in range(1000)]
# The most members a room takes (the contract's upper bound for maxMembers).
MAX_MEMBERS = 50


BINARY = None  # --binary, else the release build, else the debug one


def binary():
    if BINARY:
        return Path(BINARY)
    for build in ("release", "debug"):
        path = ROOT / ".build" / build / "swipedeck"
        if path.exists():
            return path
    sys.exit("build first: swift build -c release --product swipedeck")


def raise_open_files():
    """As many open files as the hard limit allows: thousands of streams are thousands of sockets
    (the server, started from here, inherits it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def serve(streams):
    """A fresh server whose limits let the benchmark's clients in (it measures the rooms, not the guards)."""
    folder = Path(tempfile.mkdtemp(prefix="swipedeck-bench-rooms-"))
    args = ["--admin-token", ADMIN, "--no-sample", "--rate-mint", "0", "--rate-ip", "0",
            "--rate-participant", "1000", "--max-streams", str(streams + 100),
            "--max-streams-per-client", str(streams + 100), "--max-connections-per-address", str(streams + 100),
            "--max-room-streams", str(streams + 100), "--max-room-streams-per-client", str(streams + 100),
            "--max-room-streams-per-network", str(streams + 100),
            "--idle-timeout", "600", "--sse-heartbeat", "30"]
    process, base = start_server(binary(), folder / "rooms.sqlite", args, name="bench_rooms")
    port = int(base.rsplit(":", 1)[1])
    return process, port


def rss_mb(pid):
    """Resident memory of `pid` in MB (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Http:
    """One keep-alive HTTP/1.1 connection (asyncio streams, no dependencies) from a chosen address."""

    def __init__(self, port, source):
        self.port, self.source = port, source
        self.reader = self.writer = None

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port, local_addr=(self.source, 0))

    async def request(self, method, path, body=None, headers=None):
        """(status, parsed JSON or None, monotonic time the status line arrived)."""
        for attempt in range(2):
            if self.writer is None:
                await self.open()
            data = json.dumps(body).encode() if body is not None else b""
            head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(data)}"]
            if body is not None:
                head.append("Content-Type: application/json")
            head += [f"{k}: {v}" for k, v in (headers or {}).items()]
            try:
                self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
                status_line = await self.reader.readline()
                arrived = time.monotonic()
                if not status_line:
                    raise ConnectionError("closed")
                status = int(status_line.split()[1])
                length, chunked = 0, False
                while True:
                    line = (await self.reader.readline()).decode().strip()
                    if not line:
                        break
                    name, _, value = line.partition(":")
                    if name.lower() == "content-length":
                        length = int(value)
                    elif name.lower() == "transfer-encoding" and "chunked" in value:
                        chunked = True
                raw = await self._chunked() if chunked else await self.reader.readexactly(length)
                return status, (json.loads(raw) if raw[:1] in (b"{", b"[") else None), arrived
            except (ConnectionError, asyncio.IncompleteReadError, OSError):
                self.close()
                if attempt:
                    raise
        raise ConnectionError("unreachable")

    async def _chunked(self):
        out = b""
        while True:
            size = int((await self.reader.readline()).strip(), 16)
            chunk = await self.reader.readexactly(size + 2)
            if size == 0:
                return out
            out += chunk[:-2]

    def close(self):
        if self.writer:
            self.writer.close()
        self.reader = self.writer = None


async def events(port, source, path, on_event, opened):
    """Reads the Server-Sent Events of `path` and calls on_event(name, data, monotonic time) for each;
    sets `opened` once the stream answered 200. Runs until cancelled."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0), limit=1 << 22)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
    status = int((await reader.readline()).split()[1])
    while (await reader.readline()).strip():
        pass
    if status != 200:
        writer.close()
        raise RuntimeError(f"events stream {path}: HTTP {status}")
    opened.set()
    name, data = "message", ""
    try:
        while True:
            line = (await reader.readline()).decode()
            if not line:
                return
            line = line.rstrip("\r\n")
            # Chunked framing: size lines carry no colon-led field; field lines are what matters.
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data += line[5:].strip()
            elif line == "" and data:
                on_event(name, json.loads(data), time.monotonic())
                name, data = "message", ""
    finally:
        writer.close()


class Member:
    """One room member: a minted credential, its own connection, its events."""

    def __init__(self, port, source, deck):
        self.http = Http(port, source)
        self.port, self.source, self.deck = port, source, deck
        self.credential = None
        self.id = None
        self.got = []  # (event name, data, arrival)

    async def mint(self):
        status, body, _ = await self.http.request("POST", f"/api/v1/decks/{self.deck}/participants")
        assert status == 201, (status, body)
        self.credential = body["participant"]

    def query(self):
        return f"participant={self.credential}"

    async def create_room(self, rule, liked_first=False, max_members=None):
        body = {"participant": self.credential, "name": "M0", "rule": rule, "likedFirst": liked_first}
        if max_members:
            body["maxMembers"] = max_members
        status, state, _ = await self.http.request("POST", f"/api/v1/decks/{self.deck}/rooms", body)
        assert status == 201, (status, state)
        self.id = state["you"]
        return state["code"]

    async def join(self, code, name):
        status, state, _ = await self.http.request(
            "POST", f"/api/v1/rooms/{code}/members", {"participant": self.credential, "name": name})
        assert status in (200, 201), (status, state)
        self.id = state["you"]

    async def next_cards(self, code, limit):
        path = f"/api/v1/decks/{self.deck}/cards?limit={limit}&{self.query()}"
        if code:
            path += f"&room={code}"
        status, page, _ = await self.http.request("GET", path)
        assert status == 200, (status, page)
        return [c["id"] for c in page["cards"]]

    async def swipe(self, card, direction, code, rng):
        body = {"card": card, "direction": direction, "input": "drag", "participant": self.credential,
                "trace": drag_trace(direction, rng), "decisionMs": round(rng.uniform(600, 3000), 1)}
        if code:
            body["room"] = code
        status, answer, arrived = await self.http.request("POST", f"/api/v1/decks/{self.deck}/swipes", body)
        return status, arrived

    def listen(self, code):
        opened = asyncio.Event()
        task = asyncio.create_task(events(self.port, self.source, f"/api/v1/rooms/{code}/events?{self.query()}",
                                          lambda n, d, t: self.got.append((n, d, t)), opened))
        return task, opened


async def make_deck(port, slug, cards):
    http = Http(port, SOURCES[0])
    body = {"slug": slug, "title": slug, "profile": "standard",
            "cards": [{"title": f"Card {i}"} for i in range(cards)]}
    status, answer, _ = await http.request("POST", "/api/v1/decks", body, {"Authorization": f"Bearer {ADMIN}"})
    assert status == 201, (status, answer)
    http.close()


async def gather_bounded(coroutines, limit=200):
    """Runs the coroutines, at most `limit` at once (setting up thousands of members at once only queues)."""
    gate = asyncio.Semaphore(limit)

    async def one(c):
        async with gate:
            return await c
    return await asyncio.gather(*(one(c) for c in coroutines))


def quantile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


# ---------------------------------------------------------------- (a) latency and throughput

async def latency(port, rooms, size, cards, like, rooms_on, seed, pace=0.0):
    """Swipes every member through the deck, each swipe `pace` s (± half) after the member's last
    (0: as fast as the server answers); returns (swipes/s, [latency s] or None, matches)."""
    await make_deck(port, "lunch", cards)
    rng = random.Random(seed)
    groups = [[Member(port, SOURCES[(r * size + m) % len(SOURCES)], "lunch") for m in range(size)]
              for r in range(rooms)]
    everyone = [m for g in groups for m in g]
    await gather_bounded(m.mint() for m in everyone)
    codes = [None] * rooms
    streams = []
    if rooms_on:
        async def setup(r, group):
            codes[r] = await group[0].create_room({"kind": "all"})
            for i, member in enumerate(group[1:], 1):
                await member.join(codes[r], f"M{i}")
        await gather_bounded(setup(r, g) for r, g in enumerate(groups))
        for r, group in enumerate(groups):
            for member in group:
                streams.append(member.listen(codes[r]))
        await asyncio.gather(*(opened.wait() for _, opened in streams))
    # Likes known up front, so the deciding swipe of each match is known: (room, card) -> member likes.
    liked_at = {}  # (room, card, member id) -> 201 arrival

    async def run(r, member):
        member_rng = random.Random(rng.random())
        while True:
            batch = await member.next_cards(codes[r], 10)
            if not batch:
                return 0
            for card in batch:
                if pace:
                    await asyncio.sleep(member_rng.uniform(0.5, 1.5) * pace)
                direction = "right" if member_rng.random() < like else "left"
                status, arrived = await member.swipe(card, direction, codes[r], member_rng)
                assert status in (201, 409), status
                if direction == "right":
                    liked_at[(r, card, member.id)] = arrived

    started = time.monotonic()
    await asyncio.gather(*(run(r, m) for r, g in enumerate(groups) for m in g))
    elapsed = time.monotonic() - started
    count = sum(1 for _ in everyone) * cards
    if not rooms_on:
        return count / elapsed, None, 0
    await asyncio.sleep(2.0)  # the last match events on their way
    lags, matches = [], set()
    for r, group in enumerate(groups):
        for member in group:
            for name, data, at in member.got:
                if name != "match":
                    continue
                card = data["match"]["card"]["id"]
                matches.add((r, card))
                deciding = max(liked_at[(r, card, m)] for m in data["match"]["likedBy"] if (r, card, m) in liked_at)
                lags.append(at - deciding)
    for task, _ in streams:
        task.cancel()
    for member in everyone:
        member.http.close()
    return count / elapsed, lags, len(matches)


# ---------------------------------------------------------------- (b) memory of open streams

async def memory(port, pid, streams, at_once=False):
    await make_deck(port, "streams", 5)
    members = [Member(port, SOURCES[i % len(SOURCES)], "streams") for i in range(streams)]
    # The server with its deck and nothing else; each member's connection is closed once it has
    # minted and joined, so the figure after is the streams', not 5,000 idle keep-alive sockets'.
    before = rss_mb(pid)

    async def mint(member):
        await member.mint()
        member.http.close()
    await gather_bounded(mint(m) for m in members)
    groups = [members[i:i + MAX_MEMBERS] for i in range(0, streams, MAX_MEMBERS)]

    async def setup(group):
        code = await group[0].create_room({"kind": "all"}, max_members=MAX_MEMBERS)
        group[0].http.close()
        for i, member in enumerate(group[1:], 1):
            await member.join(code, f"M{i}")
            member.http.close()
        return code
    codes = await gather_bounded(setup(g) for g in groups)
    joined = rss_mb(pid)
    # Streams open 200 at a time, as a crowd arrives: not 5,000 requests in the same instant, whose
    # transient peak (every request's work at once) the allocator would keep and RSS would show.
    tasks = []
    for code, group in zip(codes, groups):
        for member in group:
            member.http.close()
            tasks.append(member.listen(code))
            if not at_once and len(tasks) % 200 == 0:
                await asyncio.gather(*(opened.wait() for _, opened in tasks[-200:]))
    await asyncio.gather(*(opened.wait() for _, opened in tasks))
    # The server gives memory freed after a burst back every 10 s (MemoryTrimmer): read after one.
    await asyncio.sleep(12.0)
    after = rss_mb(pid)
    for task, _ in tasks:
        task.cancel()
    return before, joined, after


# ---------------------------------------------------------------- (c) matches per swipe

async def simulate(port, rooms, size, cards, turns, liked_first, seed):
    """Rooms whose members like card c with probability appeal(c) ± taste, swiping in turns (one card
    each per turn) for `turns` turns: (matches, swipes, [swipes until the first match])."""
    slug = "sim-liked" if liked_first else "sim-shared"
    await make_deck(port, slug, cards)
    rng = random.Random(seed)
    # The same rooms and tastes for both orders: the seed decides them, not the order.
    appeal = [rng.betavariate(1.2, 2.4) for _ in range(cards)]
    matches = swipes = 0
    firsts = []
    for r in range(rooms):
        members = [Member(port, SOURCES[(r * size + m) % len(SOURCES)], slug) for m in range(size)]
        tastes = [[min(1, max(0, a + rng.uniform(-0.15, 0.15))) for a in appeal] for _ in members]
        draws = [[rng.random() for _ in range(cards)] for _ in members]
        for member in members:
            await member.mint()
        code = await members[0].create_room({"kind": "all"}, liked_first=liked_first)
        for i, member in enumerate(members[1:], 1):
            await member.join(code, f"M{i}")
        # Each card's place in the deck (its appeal's index), from a member who has swiped nothing yet.
        index = {card: i for i, card in enumerate(await members[0].next_cards(None, cards))}
        room_swipes, first = 0, None
        for _ in range(turns):
            for m, member in enumerate(members):
                dealt = await member.next_cards(code, 1)
                if not dealt:
                    continue
                card = dealt[0]
                i = index[card]
                direction = "right" if draws[m][i] < tastes[m][i] else "left"
                status, _ = await member.swipe(card, direction, code, rng)
                assert status == 201, status
                room_swipes += 1
            # After each turn: the first turn that ends with a match counts its swipes.
            status, state, _ = await members[0].http.request("GET", f"/api/v1/rooms/{code}?{members[0].query()}")
            assert status == 200, (status, state)
            found = len(state["matches"])
            if found and first is None:
                first = room_swipes
        matches += found
        swipes += room_swipes
        firsts.append(first if first is not None else room_swipes)
        for member in members:
            member.http.close()
    return matches, swipes, firsts


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=1000, help="rooms in (a) (default 1000)")
    parser.add_argument("--members", type=int, default=4, help="members per room (default 4)")
    parser.add_argument("--cards", type=int, default=50, help="cards in the deck (default 50)")
    parser.add_argument("--like", type=float, default=0.6, help="(a): each member's chance to like a card")
    parser.add_argument("--streams", type=int, default=5000, help="open streams in (b) (default 5000)")
    parser.add_argument("--pace", type=float, default=0.0,
                        help="(a): seconds between a member's swipes, ± half (default 0: as fast as answered)")
    parser.add_argument("--at-once", action="store_true",
                        help="(b): open every stream in the same instant (default: 200 at a time)")
    parser.add_argument("--sim", type=int, default=200, help="simulated rooms per order in (c) (default 200)")
    parser.add_argument("--turns", type=int, default=10, help="(c): cards each member swipes (default 10)")
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--only", choices=["a", "b", "c"], help="run one part")
    parser.add_argument("--binary", help="the swipedeck to run (default: .build/release, else .build/debug)")
    args = parser.parse_args()
    global BINARY
    BINARY = args.binary
    files = raise_open_files()
    print(f"bench_rooms: {binary()} · open files {files}")
    if args.only in (None, "a"):
        plain = None
        # Paced, the rate without rooms is the pace's: it is measured at full speed only.
        if not args.pace:
            process, port = serve(args.rooms * args.members)
            try:
                plain, _, _ = asyncio.run(
                    latency(port, args.rooms, args.members, args.cards, args.like, False, args.seed))
            finally:
                process.terminate()
                process.wait()
        process, port = serve(args.rooms * args.members)
        try:
            rate, lags, found = asyncio.run(
                latency(port, args.rooms, args.members, args.cards, args.like, True, args.seed, args.pace))
        finally:
            process.terminate()
            process.wait()
        ms = [lag * 1e3 for lag in lags]
        paced = f", a swipe every {args.pace:g} s ± half per member" if args.pace else ", swiping as fast as answered"
        print(f"(a) {args.rooms} rooms × {args.members} members, {args.cards} cards, every stream open{paced}: "
              f"{found} matches, {len(ms)} match events")
        print(f"    deciding swipe's 201 → match event at each member: p50 {quantile(ms, 0.5):.0f} ms, "
              f"p99 {quantile(ms, 0.99):.0f} ms (target p99 ≤ 1000 ms: {'met' if quantile(ms, 0.99) <= 1000 else 'NOT met'})")
        beside = f", {plain:.0f} without rooms (same members, cards, script)" if plain else ""
        print(f"    swipes/s: {rate:.0f} in rooms{beside}")
    if args.only in (None, "b"):
        process, port = serve(args.streams)
        try:
            before, joined, after = asyncio.run(memory(port, process.pid, args.streams, args.at_once))
        finally:
            process.terminate()
            process.wait()
        per = (after - joined) * 1024 / max(args.streams, 1)
        how = "opened at once" if args.at_once else "opened 200 at a time"
        print(f"(b) {args.streams} open events streams ({how}): RSS {before:.0f} MB before, {joined:.0f} MB with the rooms, "
              f"{after:.0f} MB with the streams open ({per:.1f} kB per stream; target ≤ 300 MB: "
              f"{'met' if after <= 300 else 'NOT met'})")
    if args.only in (None, "c"):
        process, port = serve(args.members * 2)
        try:
            shared = asyncio.run(simulate(port, args.sim, args.members, args.cards, args.turns, False, args.seed))
            liked = asyncio.run(simulate(port, args.sim, args.members, args.cards, args.turns, True, args.seed))
        finally:
            process.terminate()
            process.wait()
        for name, (matches, swipes, firsts) in (("shared order", shared), ("liked by others first", liked)):
            print(f"(c) {name:22}: {matches} matches in {swipes} swipes = {matches / max(swipes, 1):.4f} per swipe; "
                  f"swipes until the first match: median {statistics.median(firsts):.0f}")
        if shared[0]:
            print(f"    liked-first finds {liked[0] / shared[0]:.2f}× the matches of the shared order "
                  f"in the same swipes")


if __name__ == "__main__":
    main()
