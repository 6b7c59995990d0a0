"""Helpers for the real-browser deck tests: DB polling, DOM state, human-like mouse and touch input."""
import json
import random
import sqlite3

import trace_codec
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
SHOTS = ARTIFACTS / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

# The top card: depth 0 and not on its way out (a thrown card keeps flying above the stack).
TOP = '#stack .card[data-depth="0"]:not(.leaving)'


ADMIN_TOKEN = "test-admin-token"  # the shared fixture starts every server with it


def as_owner(page):
    """Sends the admin token with every request of `page`: results are the owner's."""
    page.set_extra_http_headers({"Authorization": f"Bearer {ADMIN_TOKEN}"})


# ---------------------------------------------------------------- the free join budget

def spend_join_budget(base, window=8, deck="getaways", limit=40):
    """Page views without cookies from this network until the server stops minting for free, and then
    `window` seconds at least before it mints again: a free join due sooner (the deck page's
    Retry-After, in whole seconds) is waited for and spent too, so a page opened next comes past the
    budget however slowly the machine runs. Returns the deck page's Retry-After."""
    for _ in range(4):
        for _ in range(limit):
            with urllib.request.urlopen(f"{base}/") as r:
                if not r.headers.get("Set-Cookie"):
                    break
        else:
            raise AssertionError("the free join budget never ran out")
        with urllib.request.urlopen(f"{base}/d/{deck}") as r:
            if r.headers.get("Set-Cookie"):
                continue  # a join refilled in between, and this view spent it
            retry = int(r.headers["Retry-After"])
        if retry > window:
            return retry
        time.sleep(retry)
    raise AssertionError(f"no {window} s without a free join")


# ---------------------------------------------------------------- database

def query(server, sql, args=()):
    """Rows as dicts from the server's SQLite file (WAL: readers never block the writer)."""
    c = sqlite3.connect(server.db, timeout=5)
    try:
        c.row_factory = sqlite3.Row
        return [dict(r) for r in c.execute(sql, args).fetchall()]
    finally:
        c.close()


def swipes(server):
    """Stored swipes; `trace` is the JSON text of the trace whichever form stores it."""
    rows = query(server, "SELECT id, cardId, direction, input, trace, traceData, suspect, undoneAt FROM swipes ORDER BY createdAt, rowid")
    for row in rows:
        data = row.pop("traceData")
        if data is not None:
            row["trace"] = json.dumps(trace_codec.decode(data))
    return rows


def poll(fn, timeout=5.0, interval=0.05, what="condition"):
    """fn() until truthy; returns its value or fails with the last value seen."""
    deadline = time.monotonic() + timeout
    while True:
        v = fn()
        if v:
            return v
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}; last value {v!r}")
        time.sleep(interval)


def wait_swipes(server, n, timeout=5.0):
    """Wait until the swipes table has exactly n rows (undone rows included) and return them."""
    rows = poll(lambda: (lambda r: r if len(r) == n else None)(swipes(server)), timeout, what=f"{n} swipe rows")
    return rows


def assert_no_swipes(server, settle=1.5):
    time.sleep(settle)
    rows = swipes(server)
    assert rows == [], f"expected no swipe rows, got {rows}"


# ---------------------------------------------------------------- DOM

def top_card(page):
    """The top card's id, or None when no card is on top."""
    return page.evaluate("sel => document.querySelector(sel)?.dataset.card ?? null", TOP)


def wait_top_card(page):
    page.wait_for_selector(TOP, state="attached")
    return top_card(page)


def wait_thrown(page, card, old_top_timeout=5000):
    """The card element leaves the stack and another card is on top; returns the new top id."""
    page.wait_for_function(
        """([id, sel]) => !document.querySelector(`#stack [data-card="${id}"]`)
             && document.querySelector(sel) && document.querySelector(sel).dataset.card !== id""",
        arg=[card, TOP], timeout=old_top_timeout)
    return top_card(page)


def top_box(page):
    page.eval_on_selector(TOP, "e => e.scrollIntoView({block: 'center'})")
    return page.locator(TOP).bounding_box()


def queue(page, deck="getaways"):
    return json.loads(page.evaluate(f"localStorage.getItem('sd-queue:{deck}') || '[]'"))


def open_deck(page, server, deck="getaways"):
    page.goto(f"{server.base}/d/{deck}")
    # deck.js is a module: it has run once the card form knows the top card and the stack has a top.
    page.wait_for_function("document.documentElement.classList.contains('js') && !!document.querySelector('#stack .card')")
    return wait_top_card(page)


# ---------------------------------------------------------------- input

def _sleep_until(t):
    d = t - time.perf_counter()
    if d > 0:
        time.sleep(d)


class Mouse:
    """The left mouse button through CDP Input.dispatchMouseEvent (the same call page.mouse makes) with
    explicit event timestamps: the trace the page records has the planned timing even when a loaded
    machine delays each round trip. Dispatch is paced by real waits and never runs ahead of the plan."""

    def __init__(self, page):
        self.cdp = page.context.new_cdp_session(page)
        self.x = self.y = 0.0
        self.t0 = self.start = None

    def _send(self, kind, x, y, t, **kw):
        self.x, self.y = x, y
        self.cdp.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "timestamp": t, **kw})

    def press(self, x, y):
        self._send("mouseMoved", x, y, time.time())
        self.t0, self.start = time.time(), time.perf_counter()
        self._send("mousePressed", x, y, self.t0, button="left", buttons=1, clickCount=1)

    def move(self, x, y, at):
        """Move (button held) at `at` seconds after the press: waits until then, stamps the event with it."""
        _sleep_until(self.start + at)
        self._send("mouseMoved", x, y, self.t0 + at, button="left", buttons=1)
        self.last = at

    def up(self, at=None):
        at = self.last + 0.001 if at is None else at
        _sleep_until(self.start + at)
        self._send("mouseReleased", self.x, self.y, self.t0 + at, button="left", buttons=0, clickCount=1)

    def drag(self, x0, y0, dx, dy, duration_ms, moves, hold_ms=0, release=True, ease=True, rng=None):
        """Press at (x0, y0), move by (dx, dy) in `moves` steps over `duration_ms` along an eased
        path with a little wobble and timing jitter, optionally hold still, then release."""
        rng = rng or random.Random()
        self.press(x0, y0)
        dt = duration_ms / 1000 / moves
        for i in range(1, moves + 1):
            k = i / moves
            e = k * k * (3 - 2 * k) if ease else k  # people speed up, then slow down
            wob = 0 if i == moves else 1
            self.move(x0 + dx * e + wob * rng.uniform(-1.2, 1.2), y0 + dy * e + wob * rng.uniform(-1.5, 1.5),
                      dt * i + (rng.uniform(-0.25, 0.25) * dt if i < moves else 0))
        self.last += hold_ms / 1000
        if release:
            self.up()

    def flick(self, x0, y0, dx, duration_ms=50, moves=5, rng=None):
        """A short fast flick at roughly constant speed, released right after the last move."""
        self.drag(x0, y0, dx, 0, duration_ms, moves, ease=False, rng=rng)


def touch_gesture(cdp, x0, y0, dx, dy, moves=20, interval_ms=16, rng=None):
    """One finger via CDP Input.dispatchTouchEvent: touchStart, moves spaced ~interval_ms, touchEnd."""
    rng = rng or random.Random()
    t0 = time.time()

    def send(kind, pts, t):
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": pts, "timestamp": t})

    send("touchStart", [{"x": x0, "y": y0, "id": 1, "radiusX": 4, "radiusY": 4, "force": 1}], t0)
    start = time.perf_counter()
    x = y = 0.0
    for i in range(1, moves + 1):
        k = i / moves
        wob = 0 if i == moves else 1
        x = x0 + dx * k + wob * rng.uniform(-1, 1)
        y = y0 + dy * k + wob * rng.uniform(-1, 1)
        _sleep_until(start + interval_ms / 1000 * i + rng.uniform(-0.002, 0.002))
        send("touchMove", [{"x": x, "y": y, "id": 1, "radiusX": 4, "radiusY": 4, "force": 1}], t0 + interval_ms / 1000 * i)
    _sleep_until(start + interval_ms / 1000 * (moves + 1))
    send("touchEnd", [], t0 + interval_ms / 1000 * (moves + 1))


def percentile(xs, p):
    if not xs:
        return float("nan")
    s = sorted(xs)
    i = min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))
    return s[i]
