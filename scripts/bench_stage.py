#!/usr/bin/env python3
"""The big screen's phones (issue 36): N phones (default 1,000) follow a presented deck's stage
(`GET /d/{deck}/stage`, Server-Sent Events), first on one server (SQLite), then on two servers that
share one PostgreSQL database, half the phones on each. The presenter (an owner signed in over
HTTP) presses Lock, Unlock, Reveal and Hide on the first server, then paces the deck card by card
(host-paced) and presses Next twice; for each press the script prints the time from sending it to
the new stage on every phone — for Next, the presenter's card itself in the stream, which is all a
phone needs to show it — (p50, p99, max, and how many phones heard it within 5 s), and the
servers' memory with the streams open.

Then the big screen's verdicts: the deck goes back to self-paced with a stop rule that settles a
card at its third vote, the big screen's live results stream is open on the first server, and for
each card two votes are cast, then the deciding third (on the last server): the time from sending
it to the first results event on the big screen that shows the card decided (p50, p99, max).

Each phone is one connection from its own loopback address (127.0.x.y) with its own participant
credential, signed with the server's participant secret (joining is measured elsewhere: this is the
fan-out). Loopback only; each run is bounded (10 s per press). Usage:
  python3 scripts/bench_stage.py [--phones 1000] [--only sqlite|postgres]
"""
import argparse
import asyncio
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "Tests"))
from local_server import start_server, swipedeck_binary  # noqa: E402
from presenter import Presenter  # noqa: E402
from signed_ids import PARTICIPANT_SECRET, pid  # noqa: E402

PASSWORD = "correct horse battery staple"
# Each press, its label and how a phone's stage event shows it arrived.
PRESSES = [
    ("lock", "lock", lambda s: s.get("open") is False),
    ("unlock", "unlock", lambda s: s.get("open") is True),
    ("reveal", "reveal", lambda s: s.get("revealed") is True),
    ("hide", "hide", lambda s: s.get("revealed") is False),
    ("hostPaced", "paced", lambda s: s.get("paced") is True),
    ("next", "next 1", lambda s: s.get("step") == 1 and "dealt" in s),
    ("next", "next 2", lambda s: s.get("step") == 2 and "dealt" in s),
]


def rss_mb(pid_):
    for line in Path(f"/proc/{pid_}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def server_args(phones):
    return ["--participant-secret", PARTICIPANT_SECRET, "--admin-token", "bench-stage-admin",
            "--rate-ip", "0", "--rate-mint", "0", "--max-stage-streams", str(phones + 100),
            "--max-connections", str(phones + 500), "--max-connections-per-address", str(phones + 100),
            "--idle-timeout", "600", "--sse-heartbeat", "30"]


async def read_events(port, path, cookie, events, what, source="127.0.0.1", opened=None):
    """Reads the Server-Sent Events of `path` (with `cookie`) into `events` as (monotonic time of
    arrival, data) until the server closes; `opened` is set with the first. `what` names the stream
    in the error raised when it is refused."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n\r\n".encode())
    await writer.drain()
    status = await reader.readline()
    if b" 200 " not in status:
        raise RuntimeError(f"{what}: {status!r}")
    while True:
        line = await reader.readline()
        if not line:
            return
        if line.startswith(b"data: "):
            events.append((time.monotonic(), json.loads(line[6:])))
            if opened:
                opened.set()


class Phone:
    """One stage stream: every stage event it receives, with the monotonic time it arrived."""

    def __init__(self, port, index):
        self.port, self.index = port, index
        self.events = []
        self.opened = asyncio.Event()

    async def run(self):
        source = f"127.0.{1 + self.index // 250}.{1 + self.index % 250}"
        await read_events(self.port, "/d/getaways/stage", f"sd_pid={pid(f'phone{self.index}')}", self.events,
                          f"phone {self.index}", source=source, opened=self.opened)


async def follow(ports, phones):
    """Opens `phones` streams over `ports` (round robin), waits for each one's first event."""
    crowd = [Phone(ports[i % len(ports)], i) for i in range(phones)]
    tasks = []
    for i, phone in enumerate(crowd):
        tasks.append(asyncio.create_task(phone.run()))
        if i % 50 == 49:
            await asyncio.sleep(0.05)
    await asyncio.wait_for(asyncio.gather(*(p.opened.wait() for p in crowd)), timeout=120)
    return crowd, tasks


async def measure(crowd, presenter, csrf):
    """Per press: the seconds from sending it to each phone's first event showing it."""
    rows = []
    for action, label, shows in PRESSES:
        await asyncio.sleep(1.5)
        marks = [len(p.events) for p in crowd]
        sent = time.monotonic()
        await asyncio.to_thread(presenter.press, action, csrf)
        deadline = sent + 10
        heard = {}
        while time.monotonic() < deadline and len(heard) < len(crowd):
            for i, phone in enumerate(crowd):
                if i not in heard:
                    for at, stage in phone.events[marks[i]:]:
                        if shows(stage):
                            heard[i] = at - sent
                            break
            await asyncio.sleep(0.02)
        delays = sorted(heard.values())
        within = sum(1 for d in delays if d <= 5)
        rows.append((label, delays, within))
    return rows


class BigScreen:
    """The big screen's live results stream (the owner's session): every results event, timed."""

    def __init__(self, port, cookie):
        self.port, self.cookie = port, cookie
        self.events = []

    async def run(self):
        await read_events(self.port, "/api/v1/decks/getaways/results/live", self.cookie, self.events,
                          "the big screen's stream")


def api(port, method, path, body, admin=False):
    headers = {"Content-Type": "application/json"}
    if admin:
        headers["Authorization"] = "Bearer bench-stage-admin"
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode() if body else None,
                                     method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as r:
        return r.status, json.loads(r.read() or b"null")


VOTES = 3


async def verdicts(ports, presenter, csrf):
    """Per card: the seconds from sending its deciding vote to the big screen showing it decided."""
    await asyncio.to_thread(presenter.press, "selfPaced", csrf)
    await asyncio.to_thread(api, ports[0], "PATCH", "/api/v1/decks/getaways",
                            {"stopRule": {"kind": "votes", "votes": VOTES}}, True)
    _, page = await asyncio.to_thread(api, ports[0], "GET", "/api/v1/decks/getaways/cards?limit=100", None)
    screen = BigScreen(ports[0], presenter.cookie)
    task = asyncio.create_task(screen.run())
    delays = []
    for card in [c["id"] for c in page["cards"]]:
        def vote(k, port):
            body = {"card": card, "direction": "right", "input": "button", "participant": pid(f"voter{card}-{k}")}
            status, _ = api(port, "POST", "/api/v1/decks/getaways/swipes", body)
            assert status == 201, status
        for k in range(VOTES - 1):
            await asyncio.to_thread(vote, k, ports[0])
        await asyncio.sleep(1.2)
        mark = len(screen.events)
        sent = time.monotonic()
        await asyncio.to_thread(vote, VOTES - 1, ports[-1])
        while time.monotonic() < sent + 10:
            shown = [at for at, report in screen.events[mark:]
                     if any(c["cardId"] == card and c.get("state") not in (None, "deciding") for c in report["cards"])]
            if shown:
                delays.append(shown[0] - sent)
                break
            await asyncio.sleep(0.01)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    return len(page["cards"]), sorted(delays)


def report(title, rows, phones, rss):
    print(f"\n{title}: {phones} phones, server memory {rss}")
    print(f"{'press':8} {'heard':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for action, delays, within in rows:
        if not delays:
            print(f"{action:8} {0:>7}")
            continue
        p50 = statistics.median(delays) * 1000
        p99 = delays[min(len(delays) - 1, int(len(delays) * 0.99))] * 1000
        print(f"{action:8} {within:>7} {p50:>8.0f} {p99:>8.0f} {delays[-1] * 1000:>8.0f}")


def add_owner(database):
    result = subprocess.run([str(swipedeck_binary()), "owner", "add", "presenter", "--password-stdin", "--db", database],
                            input=PASSWORD + "\n", text=True, capture_output=True, timeout=60)
    if result.returncode != 0:
        sys.exit(result.stderr)


async def run(ports, pids, phones, title):
    presenter = Presenter(f"http://127.0.0.1:{ports[0]}", "presenter", PASSWORD)
    csrf = presenter.csrf()
    before = [rss_mb(p) for p in pids]
    crowd, tasks = await follow(ports, phones)
    after = [rss_mb(p) for p in pids]
    rows = await measure(crowd, presenter, csrf)
    rss = ", ".join(f"{a:.0f} MB ({(a - b) * 1024 / max(1, phones // len(pids)):.0f} kB a stream)"
                    for a, b in zip(after, before))
    report(title, rows, phones, rss)
    cards, delays = await verdicts(ports, presenter, csrf)
    if delays:
        p99 = delays[min(len(delays) - 1, int(len(delays) * 0.99))] * 1000
        print(f"verdict on the big screen, {len(delays)} of {cards} cards: p50 {statistics.median(delays) * 1000:.0f} ms,"
              f" p99 {p99:.0f} ms, max {delays[-1] * 1000:.0f} ms (from the deciding vote, sent to the last server)")
    else:
        print(f"verdict on the big screen: none of {cards} cards shown decided within 10 s")
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--phones", type=int, default=1000)
    parser.add_argument("--only", choices=["sqlite", "postgres"])
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"bench_stage: {swipedeck_binary()}")
    if args.only in (None, "sqlite"):
        folder = Path(tempfile.mkdtemp(prefix="swipedeck-bench-stage-"))
        database = str(folder / "stage.sqlite")
        # The sample deck first (the server seeds it), then its owner (who adopts it).
        process, base = start_server(swipedeck_binary(), database, server_args(args.phones), name="bench_stage")
        add_owner(database)
        try:
            asyncio.run(run([int(base.rsplit(":", 1)[1])], [process.pid], args.phones, "One server, SQLite"))
        finally:
            process.terminate()
            process.wait()
            shutil.rmtree(folder, ignore_errors=True)
    if args.only in (None, "postgres"):
        cluster = tempfile.mkdtemp(prefix="swipedeck-bench-stage-pg-")
        url = subprocess.run(["bash", str(ROOT / "scripts/pg-cluster.sh"), "start", cluster], capture_output=True,
                             text=True, check=True).stdout.strip()
        processes = []
        try:
            first, base = start_server(swipedeck_binary(), url, server_args(args.phones), name="bench_stage (1)")
            processes.append(first)
            add_owner(url)
            second, base2 = start_server(swipedeck_binary(), url, server_args(args.phones), name="bench_stage (2)")
            processes.append(second)
            ports = [int(b.rsplit(":", 1)[1]) for b in (base, base2)]
            asyncio.run(run(ports, [p.pid for p in processes], args.phones,
                            "Two servers, one PostgreSQL (presses on the first; half the phones on each)"))
        finally:
            for p in processes:
                p.terminate()
                p.wait()
            subprocess.run(["bash", str(ROOT / "scripts/pg-cluster.sh"), "stop", cluster], capture_output=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
