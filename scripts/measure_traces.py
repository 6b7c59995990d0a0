"""What the page's own trace recorder sends for fast human-like flicks: the numbers behind the trace
limits in Sources/SwipePhysics/ValidationLimits.swift (minSamples, minDurationMs, maxSamples) and the
real-input corpus Tests/Fixtures/real-input.jsonl.

Starts `swipedeck serve` on 127.0.0.1 with a temporary database, opens the sample deck in Debian's
Chromium (Playwright, /usr/bin/chromium) at 390×844 with touch and at 1280×800 with a mouse, and
drives fast flicks through Chromium's own input pipeline (CDP Input.dispatchTouchEvent /
Input.dispatchMouseEvent): a still press of 0–30 ms, then a minimum-jerk stroke whose peak speed is
2–10 px/ms (fast human flicks peak near 10), released 0–12 ms after the last move. Moves come at a
device rate (touch 60 or 120 Hz, mouse 125, 500 or 1000 Hz) and are either stamped by the plan
(CDP `timestamp`) or left for the browser to stamp as they arrive, with late moves sent in bursts
as a loaded machine delivers them. physics.js is served with `classify` wrapped, so every drag's
trace and the page's verdict are recorded; the POST /swipes answers show what the server refused.

    python3 scripts/measure_traces.py [--binary .build/debug/swipedeck] [--flicks 200] [--seed 1]
        [--corpus out.jsonl]

Prints the sample counts and durations (t[n−1] − t[0], ms) of the traces the page throws (judged
with no floor on samples or duration, the floors being what is measured) and of every drag it
judged, by input; --corpus writes the thrown traces with bursts (two samples under 1 ms apart) and
the shortest ones as `swipedeck classify` lines with the profile and input beside them.
"""
import argparse
import json
import math
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
TOP = '#stack .card[data-depth="0"]:not(.leaving)'
# classify wrapped: every call's trace (a copy), the page's verdict, and the verdict without the
# minimum sample count and duration, in order.
WRAP = """
export function classify(trace, profile, claimed) {
  const verdict = classifyUnwrapped(trace, profile, claimed);
  const limits = { ...profile.limits, minSamples: 1, minDurationMs: 0 };
  const unbounded = classifyUnwrapped(trace, { ...profile, limits }, claimed);
  (globalThis.measured ||= []).push({ trace: JSON.parse(JSON.stringify(trace)), verdict, unbounded, profile: profile.name });
  return verdict;
}
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(binary, folder):
    port = free_port()
    process = subprocess.Popen(
        [binary, "serve", "--db", str(Path(folder) / "measure.sqlite"), "--port", str(port), "--admin-token", "measure",
         "--rate-participant", "0", "--rate-ip", "0", "--rate-mint", "0"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(400):
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1)
            return process, base
        except OSError:
            time.sleep(0.05)
    process.kill()
    sys.exit("measure_traces: the server did not start")


def instrument(route):
    body = route.fetch().text()
    route.fulfill(body=body.replace("export function classify(", "function classifyUnwrapped(") + WRAP,
                  headers={"content-type": "text/javascript"})


def min_jerk(s):
    return s * s * s * (10 - 15 * s + 6 * s * s)


def plan(rng, width, touch):
    """A flick: (moves as (ms after the press, dx, dy)), release ms after the press, the move rate."""
    hold = rng.choice([0, 0, 5, 12, 30])
    peak = rng.uniform(2, 10)
    distance = rng.uniform(0.15, 0.8) * width
    duration = max(25.0, 1.875 * distance / peak)
    angle = rng.uniform(-0.35, 0.35) + (math.pi if rng.random() < 0.5 else 0)
    hz = rng.choice([60, 120]) if touch else rng.choice([125, 500, 1000])
    step = 1000 / hz
    moves = []
    k = 1
    while k * step < duration + step:
        s = min(1.0, k * step / duration)
        moves.append((hold + k * step, distance * min_jerk(s) * math.cos(angle) + rng.uniform(-0.6, 0.6),
                      distance * min_jerk(s) * math.sin(angle) + rng.uniform(-0.6, 0.6)))
        k += 1
    return moves, moves[-1][0] + rng.uniform(0, 12), hz


class Finger:
    """Touch or mouse through CDP; `stamped` sends the plan's timestamps, else the browser stamps."""

    def __init__(self, cdp, touch, stamped):
        self.cdp, self.touch, self.stamped = cdp, touch, stamped

    def send(self, kind, x, y, t):
        extra = {"timestamp": t} if self.stamped else {}
        if self.touch:
            points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1, "radiusX": 4, "radiusY": 4, "force": 1}]
            self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points, **extra})
        else:
            buttons = 0 if kind == "mouseReleased" else 1
            self.cdp.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "buttons": buttons,
                                                       "clickCount": 1, **extra})

    def flick(self, rng, x0, y0, moves, release):
        down, move, up = ("touchStart", "touchMove", "touchEnd") if self.touch else ("mousePressed", "mouseMoved", "mouseReleased")
        if not self.touch:
            self.send("mouseMoved", x0, y0, time.time())
        t0, start = time.time(), time.perf_counter()
        self.send(down, x0, y0, t0)
        # Arrival stamping: a loaded machine delivers some moves late, in a burst with the next one.
        late = set(i for i in range(len(moves) - 1) if not self.stamped and rng.random() < 0.3)
        x = y = 0.0
        for i, (at, dx, dy) in enumerate(moves):
            x, y = x0 + dx, y0 + dy
            if i not in late:
                wait = start + at / 1000 - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
            self.send(move, x, y, t0 + at / 1000)
        wait = start + release / 1000 - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        self.send(up, x, y, t0 + release / 1000)


def run(browser, base, touch, stamped, flicks, rng, sent):
    viewport = PHONE if touch else DESKTOP
    context = browser.new_context(viewport=viewport, has_touch=touch)
    page = context.new_page()
    page.route("**/js/physics.js*", instrument)
    answers = []
    page.on("response", lambda r: answers.append(r.status) if r.request.method == "POST" and r.url.endswith("/swipes") else None)
    cdp = context.new_cdp_session(page)
    finger = Finger(cdp, touch, stamped)
    done = 0
    while done < flicks:
        page.goto(f"{base}/d/getaways")
        page.wait_for_function("document.documentElement.classList.contains('js') && !!document.querySelector('#stack .card')")
        while done < flicks and page.query_selector(TOP):
            page.eval_on_selector(TOP, "e => e.scrollIntoView({block: 'center'})")
            box = page.locator(TOP).bounding_box()
            moves, release, hz = plan(rng, box["width"], touch)
            x0 = box["x"] + box["width"] * rng.uniform(0.35, 0.65)
            y0 = box["y"] + box["height"] * rng.uniform(0.3, 0.6)
            finger.flick(rng, x0, y0, moves, release)
            done += 1
            page.wait_for_timeout(700)
        for m in page.evaluate("globalThis.measured || []"):
            m["input"] = ("touch" if touch else "mouse") + (" stamped" if stamped else " arrival")
            sent.append(m)
        page.evaluate("globalThis.measured = []")
    context.close()
    return answers


def summary(label, traces):
    if not traces:
        print(f"{label}: none")
        return
    counts = sorted(len(m["trace"]["t"]) for m in traces)
    durations = sorted(m["trace"]["t"][-1] - m["trace"]["t"][0] for m in traces)
    gaps = [b - a for m in traces for a, b in zip(m["trace"]["t"], m["trace"]["t"][1:])]
    pct = lambda xs, p: xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]
    print(f"{label}: {len(traces)} traces; samples min {counts[0]} p1 {pct(counts, 1)} p50 {pct(counts, 50)} max {counts[-1]}; "
          f"duration ms min {durations[0]:.1f} p1 {pct(durations, 1):.1f} p50 {pct(durations, 50):.1f} max {durations[-1]:.1f}; "
          f"smallest gap {min(gaps):.3f} ms")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "swipedeck"))
    parser.add_argument("--flicks", type=int, default=200, help="per input kind (touch/mouse × stamped/arrival)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--corpus")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    measured = []
    statuses = []
    with tempfile.TemporaryDirectory() as folder:
        server, base = start_server(args.binary, folder)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
                for touch in (True, False):
                    for stamped in (True, False):
                        statuses += run(browser, base, touch, stamped, args.flicks, rng, measured)
                browser.close()
        finally:
            server.terminate()
            server.wait()
    # Thrown: what the page throws with no floor on samples or duration (the floors are what is measured).
    thrown = [m for m in measured if m["unbounded"]["rejection"] is None and m["unbounded"]["decision"] != "none"]
    refused = [m for m in measured if m["verdict"]["rejection"] is not None]
    for kind in sorted({m["input"] for m in measured}):
        summary(f"{kind}, thrown", [m for m in thrown if m["input"] == kind])
        summary(f"{kind}, every drag judged", [m for m in measured if m["input"] == kind])
    summary("all thrown", thrown)
    print(f"page refusals: {[(m['verdict']['rejection'], len(m['trace']['t'])) for m in refused]}")
    print(f"POST /swipes answers: { {s: statuses.count(s) for s in set(statuses)} }")
    if args.corpus:
        # The bursts (two samples under 1 ms apart), and per input the 10 shortest and the 10 with the
        # fewest samples: the real-input traces the limits must let through.
        keep = {id(m): m for m in thrown if any(b - a < 1 for a, b in zip(m["trace"]["t"], m["trace"]["t"][1:]))}
        for kind in sorted({m["input"] for m in thrown}):
            mine = [m for m in thrown if m["input"] == kind]
            for key in (lambda m: m["trace"]["t"][-1] - m["trace"]["t"][0], lambda m: len(m["trace"]["t"])):
                keep.update((id(m), m) for m in sorted(mine, key=key)[:10])
        with open(args.corpus, "w") as out:
            for m in sorted(keep.values(), key=lambda m: (m["input"], len(m["trace"]["t"]))):
                out.write(json.dumps({"profile": m["profile"], "input": m["input"], "claimed": m["unbounded"]["decision"],
                                      "trace": m["trace"]}, separators=(",", ":")) + "\n")

if __name__ == "__main__":
    main()
