"""What the page's own trace recorder sends for fast human-like flicks: the numbers behind the trace
limits in Sources/SwipePhysics/ValidationLimits.swift (minSamples, minDurationMs, maxSamples) and the
real-input corpus Tests/Fixtures/real-input.jsonl.

Starts `swipedeck serve` on 127.0.0.1 with a temporary database, opens the sample deck in Debian's
Chromium (Playwright, /usr/bin/chromium) at 390×844 with touch and at 1280×800 with a mouse, and
drives fast flicks through Chromium's own input pipeline (CDP Input.dispatchTouchEvent /
Input.dispatchMouseEvent): a still press of 0–30 ms, then a minimum-jerk stroke over 15–80 % of the
card width whose peak speed is 2–10 px/ms (fast human flicks peak near 10) and which lasts at
least 25 ms, released 0–12 ms after the last move. Moves come at a
device rate (touch 60 or 120 Hz, mouse 125, 500 or 1000 Hz), each dispatched on its own, so the
page gets every one (a browser that aligns input to frames sends fewer). Each event carries the
time the page sees it (CDP `timestamp`): steady, when it was made; with bursts, 30 % of the 60 Hz
frames stall and their moves are stamped as they arrive at the frame's end, 0.1–0.8 ms apart, as
a loaded machine stamps them. physics.js is served with `classify` wrapped, so every drag's
trace and the page's verdict are recorded; the POST /swipes answers show what the server refused.

    python3 scripts/measure_traces.py [--binary .build/debug/swipedeck] [--flicks 200] [--seed 1]
        [--corpus out.jsonl]

Prints the sample counts and durations (t[n−1] − t[0], ms) of the traces the page throws (judged
with no floor on samples or duration, the floors being what is measured) and of every drag it
judged, by input, and how many a per-pair speed rule would refuse; --corpus writes a selection of
the thrown traces (`corpus`) as `swipedeck classify` lines with the profile and input beside them.
"""
import argparse
import json
import math
import random
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from local_server import start_server  # noqa: E402
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
TOP = '#stack .card[data-depth="0"]:not(.leaving)'
# Classification.of wrapped: every call's trace (a copy), the page's verdict, and the verdict without the
# minimum sample count and duration, in order.
WRAP = """
export const Classification = Object.freeze({
  ...ClassificationUnwrapped,
  of(trace, claimed, profile) {
    const verdict = ClassificationUnwrapped.of(trace, claimed, profile);
    const limits = { ...profile.limits, minSamples: 1, minDurationMs: 0 };
    const unbounded = ClassificationUnwrapped.of(trace, claimed, { ...profile, limits });
    (globalThis.measured ||= []).push({ trace: JSON.parse(JSON.stringify(trace)), verdict, unbounded, profile: profile.name });
    return verdict;
  },
});
"""



def instrument(route):
    body = route.fetch().text()
    route.fulfill(body=body.replace("export const Classification = ", "const ClassificationUnwrapped = ") + WRAP,
                  headers={"content-type": "text/javascript"})


def min_jerk(s):
    return s * s * s * (10 - 15 * s + 6 * s * s)


def plan(rng, width, touch):
    """A flick: its moves as (ms after the press, dx, dy), and when it is released (ms after the press)."""
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
    return moves, moves[-1][0] + rng.uniform(0, 12)


FRAME_MS = 1000 / 60


def stamps(rng, moves, stalls):
    """When the page sees each move, ms after the press. Without stalls, when it was made. A stalled
    frame (probability `stalls`, 60 Hz frames) holds its moves until the frame ends; the browser then
    stamps them as they arrive, 0.1–0.8 ms apart: the bursts a loaded machine produces."""
    out = []
    stalled = {}
    for at, _, _ in moves:
        frame = int(at // FRAME_MS)
        if frame not in stalled:
            stalled[frame] = rng.random() < stalls
        stamp = (frame + 1) * FRAME_MS if stalled[frame] else at
        if out and stamp <= out[-1]:
            stamp = out[-1] + rng.uniform(0.1, 0.8)
        out.append(stamp)
    return out


class Finger:
    """Touch or mouse through CDP, each event stamped (CDP `timestamp`) with when the page sees it."""

    def __init__(self, cdp, touch):
        self.cdp, self.touch = cdp, touch

    def send(self, kind, x, y, t):
        if self.touch:
            points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1, "radiusX": 4, "radiusY": 4, "force": 1}]
            self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points, "timestamp": t})
        else:
            buttons = 0 if kind == "mouseReleased" else 1
            self.cdp.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "buttons": buttons,
                                                       "clickCount": 1, "timestamp": t})

    def flick(self, rng, x0, y0, moves, release, stalls):
        down, move, up = ("touchStart", "touchMove", "touchEnd") if self.touch else ("mousePressed", "mouseMoved", "mouseReleased")
        if not self.touch:
            self.send("mouseMoved", x0, y0, time.time())
        t0, start = time.time(), time.perf_counter()
        self.send(down, x0, y0, t0)
        seen = stamps(rng, moves, stalls)
        x = y = 0.0
        for (_, dx, dy), at in zip(moves, seen):
            x, y = x0 + dx, y0 + dy
            wait = start + at / 1000 - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            self.send(move, x, y, t0 + at / 1000)
        release = max(release, seen[-1] + rng.uniform(0.1, 0.8))
        wait = start + release / 1000 - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        self.send(up, x, y, t0 + release / 1000)


def run(browser, base, touch, stalls, flicks, rng, sent):
    """`flicks` flicks on the sample deck, a fresh participant (browser context) whenever the deck runs
    out; appends what classify saw to `sent`, returns the POST /swipes statuses."""
    answers = []
    done = 0
    while done < flicks:
        context = browser.new_context(viewport=PHONE if touch else DESKTOP, has_touch=touch)
        page = context.new_page()
        page.route("**/js/physics.*js", instrument)
        page.on("response", lambda r: answers.append(r.status) if r.request.method == "POST" and r.url.endswith("/swipes") else None)
        finger = Finger(context.new_cdp_session(page), touch)
        page.goto(f"{base}/d/getaways")
        page.wait_for_function("document.documentElement.classList.contains('js') && !!document.querySelector('#stack .card')")
        while done < flicks and page.query_selector(TOP):
            page.eval_on_selector(TOP, "e => e.scrollIntoView({block: 'center'})")
            box = page.locator(TOP).bounding_box()
            moves, release = plan(rng, box["width"], touch)
            x0 = box["x"] + box["width"] * rng.uniform(0.35, 0.65)
            y0 = box["y"] + box["height"] * rng.uniform(0.3, 0.6)
            finger.flick(rng, x0, y0, moves, release, stalls)
            done += 1
            page.wait_for_timeout(700)
        for m in page.evaluate("globalThis.measured || []"):
            m["input"] = ("touch" if touch else "mouse") + (" bursts" if stalls else " steady")
            sent.append(m)
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


def pair_teleport(trace):
    """Whether a pair of samples breaks the old per-pair speed rule (20 px/ms × the pair's interval + 2 px)."""
    t, x, y = trace["t"], trace["x"], trace["y"]
    points = list(zip([0] + t, [0] + x, [0] + y))
    return any((x1 - x0) ** 2 + (y1 - y0) ** 2 > (20 * (t1 - t0) + 2) ** 2 for (t0, x0, y0), (t1, x1, y1) in zip(points, points[1:]))


def corpus(thrown):
    """The real-input fixture: per input, the 15 fewest-sample traces with a burst a per-pair speed rule
    refuses, the 5 shortest and the 5 with the fewest samples."""
    keep = {}
    for kind in sorted({m["input"] for m in thrown}):
        mine = sorted((m for m in thrown if m["input"] == kind), key=lambda m: len(m["trace"]["t"]))
        picks = [m for m in mine if pair_teleport(m["trace"])][:15] + mine[:5]
        picks += sorted(mine, key=lambda m: m["trace"]["t"][-1] - m["trace"]["t"][0])[:5]
        keep.update((id(m), m) for m in picks)
    return sorted(keep.values(), key=lambda m: (m["input"], len(m["trace"]["t"])))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "swipedeck"))
    parser.add_argument("--flicks", type=int, default=200, help="per input kind (touch/mouse × steady/bursts)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--corpus")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    measured = []
    statuses = []
    with tempfile.TemporaryDirectory() as folder:
        server, base = start_server(
            args.binary, Path(folder) / "measure.sqlite",
            ["--admin-token", "measure", "--rate-participant", "0", "--rate-ip", "0", "--rate-mint", "0"], name="measure_traces")
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
                for touch in (True, False):
                    for stalls in (0, 0.3):
                        statuses += run(browser, base, touch, stalls, args.flicks, rng, measured)
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
    print(f"thrown traces a per-pair speed rule would refuse: {sum(pair_teleport(m['trace']) for m in thrown)}")
    print(f"page refusals: {[(m['verdict']['rejection'], len(m['trace']['t'])) for m in refused]}")
    print(f"POST /swipes answers: { {s: statuses.count(s) for s in set(statuses)} }")
    if args.corpus:
        with open(args.corpus, "w") as out:
            for m in corpus(thrown):
                out.write(json.dumps({"profile": m["profile"], "input": m["input"], "claimed": m["unbounded"]["decision"],
                                      "trace": m["trace"]}, separators=(",", ":")) + "\n")

if __name__ == "__main__":
    main()
