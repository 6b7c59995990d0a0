"""`make bench-page`: what a phone downloads and how soon it can swipe.

Loads the deck page in Chromium (Debian's /usr/bin/chromium through Playwright) with CDP network
throttling (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up) and a 4x CPU slowdown, on a cold
cache, against a swipedeck server started here on 127.0.0.1 with a temporary database; then visits
again on the warm cache. Prints, per visit, the bytes transferred by kind as encoded on the wire
(CDP Network.loadingFinished encodedDataLength: headers and body, after compression) and the time
from navigation start until the top card can be dragged (the `deck-ready` mark deck.js sets once its
handlers are attached). Several runs; the median is reported.

    python3 scripts/bench_page.py [--binary .build/release/swipedeck] [--runs 5]
"""
import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from local_server import start_server  # noqa: E402
RTT_MS = 150
DOWN_BYTES_PER_S = 1_600_000 / 8
UP_BYTES_PER_S = 750_000 / 8
CPU_SLOWDOWN = 4
KINDS = {"Document": "HTML", "Stylesheet": "CSS", "Script": "JS", "Image": "images"}


def visit(page, cdp, url):
    """One navigation: bytes per kind on the wire, and ms from navigation start to deck-ready."""
    kinds = {}
    sizes = {}
    cdp.on("Network.responseReceived", lambda e: kinds.__setitem__(e["requestId"], e["type"]))
    cdp.on("Network.loadingFinished", lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]))
    page.goto(url)
    page.wait_for_selector(".deck-page[data-ready='true']", timeout=60_000)
    ready = page.evaluate("performance.getEntriesByName('deck-ready')[0].startTime")
    page.wait_for_load_state("networkidle")
    by_kind = {}
    for request, size in sizes.items():
        kind = KINDS.get(kinds.get(request), "other")
        by_kind[kind] = by_kind.get(kind, 0) + size
    return by_kind, ready


def run_once(browser, base):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=False)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": RTT_MS, "downloadThroughput": DOWN_BYTES_PER_S, "uploadThroughput": UP_BYTES_PER_S})
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    first = visit(page, cdp, base + "/d/getaways")
    # A new session per visit: its listeners count this visit only.
    cdp2 = context.new_cdp_session(page)
    cdp2.send("Network.enable")
    cdp2.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": RTT_MS, "downloadThroughput": DOWN_BYTES_PER_S, "uploadThroughput": UP_BYTES_PER_S})
    repeat = visit(page, cdp2, base + "/d/getaways")
    context.close()
    return first, repeat


def report(name, runs):
    kinds = sorted({k for by_kind, _ in runs for k in by_kind})
    median = {k: statistics.median(by_kind.get(k, 0) for by_kind, _ in runs) for k in kinds}
    code = sum(median.get(k, 0) for k in ("HTML", "CSS", "JS"))
    ready = statistics.median(ms for _, ms in runs)
    parts = ", ".join(f"{k} {median[k] / 1000:.1f} KB" for k in kinds)
    print(f"{name}: {parts}; HTML+CSS+JS {code / 1000:.1f} KB; draggable after {ready:.0f} ms")
    return code, ready


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=str(ROOT / ".build/release/swipedeck"))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        server, base = start_server(args.binary, Path(folder) / "bench.sqlite", ["--admin-token", "bench"], name="bench_page")
        try:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            results = [run_once(browser, base) for _ in range(args.runs)]
            browser.close()
        finally:
            server.terminate()
            server.wait()
    print(f"deck page, {RTT_MS} ms RTT, {DOWN_BYTES_PER_S * 8 / 1e6:.1f} Mbit/s down, {CPU_SLOWDOWN}x CPU slowdown, "
          f"median of {args.runs} runs (bytes as sent: headers + compressed bodies)")
    code, ready = report("first visit (cold cache)", [first for first, _ in results])
    report("repeat visit (warm cache)", [repeat for _, repeat in results])
    print(f"targets: first visit HTML+CSS+JS <= 30 KB: {'met' if code <= 30_000 else 'NOT met'}; "
          f"draggable <= 1200 ms: {'met' if ready <= 1200 else 'NOT met'}")


if __name__ == "__main__":
    main()
