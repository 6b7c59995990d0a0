#!/usr/bin/env python3
"""The big screen's phones (issue 36): N phones (default 1,000) follow a presented deck's stage
(`GET /d/{deck}/stage`, Server-Sent Events), first on one server (SQLite), then on two servers that
share one PostgreSQL database, half the phones on each. The presenter (an owner signed in over
HTTP) presses Lock, Unlock, Reveal and Hide on the first server; for each press the script prints
the time from sending it to the new stage on every phone (p50, p99, max, and how many phones heard
it within 5 s), and the servers' memory with the streams open.

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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "Tests"))
from local_server import start_server, swipedeck_binary  # noqa: E402
from presenter import Presenter  # noqa: E402
from signed_ids import PARTICIPANT_SECRET, pid  # noqa: E402

PASSWORD = "correct horse battery staple"
PRESSES = [("lock", "open", False), ("unlock", "open", True), ("reveal", "revealed", True), ("hide", "revealed", False)]


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


class Phone:
    """One stage stream: every stage event it receives, with the monotonic time it arrived."""

    def __init__(self, port, index):
        self.port, self.index = port, index
        self.events = []
        self.opened = asyncio.Event()

    async def run(self):
        source = f"127.0.{1 + self.index // 250}.{1 + self.index % 250}"
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port, local_addr=(source, 0))
        writer.write((f"GET /d/getaways/stage HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      f"Cookie: sd_pid={pid(f'phone{self.index}')}\r\n\r\n").encode())
        await writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"phone {self.index}: {status!r}")
        while True:
            line = await reader.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                self.events.append((time.monotonic(), json.loads(line[6:])))
                self.opened.set()


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
    for action, field, value in PRESSES:
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
                        if stage.get(field) == value:
                            heard[i] = at - sent
                            break
            await asyncio.sleep(0.02)
        delays = sorted(heard.values())
        within = sum(1 for d in delays if d <= 5)
        rows.append((action, delays, within))
    return rows


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
