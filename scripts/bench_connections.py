#!/usr/bin/env python3
"""Memory per open connection: swipedeck against the bare Hummingbird server (scripts/hello), in one run.

Opens N keep-alive connections to each server (from 1,000 loopback addresses, 200 at a time), one
request each (hello: GET /; swipedeck: GET /api/v1/decks/{deck} and, as a second figure, the live
results stream), and prints the growth of the server's RSS per connection. Needs both release builds:

    swift build -c release --product swipedeck
    swift build -c release --package-path scripts/hello
    python3 scripts/bench_connections.py [--connections 5000]
"""
import argparse
import asyncio
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_rooms as rooms  # noqa: E402  (its server, deck and address helpers)

HELLO = Path(__file__).resolve().parent / "hello" / ".build" / "release" / "hello"


async def hold(port, pid, n, request):
    """RSS in MB before and after `n` connections each sent `request` and read its first bytes."""
    before = rooms.rss_mb(pid)
    held = []
    limit = asyncio.Semaphore(200)

    async def one(i):
        async with limit:
            source = rooms.SOURCES[i % len(rooms.SOURCES)]
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
            writer.write(request)
            await writer.drain()
            await reader.read(200)
            held.append(writer)
    await asyncio.gather(*(one(i) for i in range(n)))
    await asyncio.sleep(12.0)  # past one MemoryTrimmer interval (10 s)
    after = rooms.rss_mb(pid)
    for writer in held:
        writer.close()
    return before, after


def report(name, n, before, after):
    print(f"{name:34}: RSS {before:.0f} MB → {after:.0f} MB with {n} connections: "
          f"{(after - before) * 1024 / n:.1f} kB each")


async def swipedeck(port, pid, n, path, auth):
    await rooms.make_deck(port, "conn", 5)
    header = f"Authorization: Bearer {rooms.ADMIN}\r\n" if auth else ""
    return await hold(port, pid, n, f"GET {path} HTTP/1.1\r\nHost: x\r\n{header}\r\n".encode())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--connections", type=int, default=5000)
    args = parser.parse_args()
    n = args.connections
    rooms.raise_open_files()
    if not HELLO.exists():
        sys.exit("build first: swift build -c release --package-path scripts/hello")
    hello = subprocess.Popen([str(HELLO), "18977"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(2)
        report("hello (bare Hummingbird), idle", n, *asyncio.run(
            hold(18977, hello.pid, n, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")))
    finally:
        hello.terminate()
        hello.wait()
    for name, path, auth in (("swipedeck, idle after a deck GET", "/api/v1/decks/conn", False),
                             ("swipedeck, live results stream", "/api/v1/decks/conn/results/live", True)):
        process, port = rooms.serve(n)
        try:
            report(name, n, *asyncio.run(swipedeck(port, process.pid, n, path, auth)))
        finally:
            process.terminate()
            process.wait()


if __name__ == "__main__":
    main()
