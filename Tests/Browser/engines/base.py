"""The engine-neutral page: what the three-engine tests may ask of a browser tab.

A subclass implements the primitives (`_call`, `goto`, `_pointer`, `_keys`, `click`, `screenshot`,
`close`); everything else (waiting, reading the DOM, gestures) is built here from them, so a test
reads the same in Chromium, WebKit and Firefox.

`evaluate(fn, *args)`: `fn` is a JavaScript function's source ("(a, b) => …"), called in the page
with the JSON-serialisable `args`; a returned promise is awaited; the result comes back through
JSON.stringify (undefined → None)."""
import json
import random
import time

# W3C WebDriver key codes of the keys the deck uses (Playwright takes the names as they are).
KEY_CODES = {"ArrowLeft": "\ue012", "ArrowUp": "\ue013", "ArrowRight": "\ue014", "ArrowDown": "\ue015",
             "Backspace": "\ue003", "Enter": "\ue007", "Tab": "\ue004", "Escape": "\ue00c"}

# The function every engine calls, `fn`'s source pasted in (no eval: the pages' CSP forbids it):
# arguments and result travel as JSON text, so no engine's own value serialisation (BiDi remote values,
# WebDriver element references) is involved.
def wrap(fn):
    return ("(argsJSON) => Promise.resolve((" + fn + ")(...JSON.parse(argsJSON)))"
            ".then((value) => JSON.stringify(value === undefined ? null : value))")


class EngineError(AssertionError):
    """An engine refused a command or a page script threw."""


class Page:
    """One tab (own cookies and storage where the engine has user contexts) of one engine."""

    engine = "?"
    # Whether pointer actions of type "touch" reach the page as touch pointers.
    supports_touch = False
    # Whether a touch drag the page leaves to the browser pans the page (the browser's own scrolling).
    touch_scrolls = False

    def __init__(self, viewport, touch=False, javascript=True):
        self.viewport, self.touch, self.javascript = viewport, touch, javascript

    # ------------------------------------------------------------ primitives (subclasses)

    def _call(self, fn, args):
        """Calls wrap(fn) with the JSON text of the arguments; returns the JSON text it resolved to."""
        raise NotImplementedError

    def goto(self, url):
        """Navigates and waits for the load event."""
        raise NotImplementedError

    def _pointer(self, kind, steps):
        """Performs pointer steps in real time: ("down", x, y), ("move", x, y, ms), ("up",), with x, y in
        viewport CSS px and `ms` the time the move takes after the previous step."""
        raise NotImplementedError

    def _keys(self, key):
        raise NotImplementedError

    def click(self, selector):
        """A real mouse click at the centre of the first element `selector` matches."""
        raise NotImplementedError

    def screenshot(self, path):
        raise NotImplementedError

    def page_errors(self):
        """Uncaught errors the page threw so far (as far as the engine reports them)."""
        return []

    def close(self):
        raise NotImplementedError

    # ------------------------------------------------------------ built on them

    def evaluate(self, fn, *args):
        text = self._call(fn, json.dumps(list(args)))
        return json.loads(text) if text is not None else None

    def wait_for(self, fn, *args, timeout=10.0, interval=0.05, what=None):
        """Polls `fn(...args)` in the page until it returns something truthy; returns it."""
        deadline = time.monotonic() + timeout
        last = None
        while True:
            try:
                last = self.evaluate(fn, *args)
            except EngineError as e:  # the page is navigating: its context is gone for a moment
                last = e
            if last and not isinstance(last, Exception):
                return last
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.engine}: timed out after {timeout}s waiting for {what or fn}; last {last!r}")
            time.sleep(interval)

    def text(self, selector):
        return self.evaluate("(s) => document.querySelector(s)?.textContent.trim() ?? null", selector)

    def attr(self, selector, name):
        return self.evaluate("(s, n) => document.querySelector(s)?.getAttribute(n) ?? null", selector, name)

    def count(self, selector):
        return self.evaluate("(s) => document.querySelectorAll(s).length", selector)

    def box(self, selector):
        """The element's box in viewport px after scrolling it into view: {x, y, width, height}."""
        return self.evaluate("""(s) => { const e = document.querySelector(s);
            if (!e) return null;
            e.scrollIntoView({block: 'center', inline: 'center'});
            const r = e.getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height}; }""", selector)

    def press(self, key):
        """One key pressed and released (a name from KEY_CODES, or one character)."""
        self._keys(key)

    def pointer_down(self, kind, x, y):
        self._pointer(kind, [("down", x, y)])

    def pointer_moves(self, kind, points):
        """Moves along `points`: (ms after the previous point, x, y)."""
        self._pointer(kind, [("move", x, y, ms) for ms, x, y in points])

    def pointer_up(self, kind):
        self._pointer(kind, [("up",)])

    def gesture(self, kind, x0, y0, points, release=True):
        """Press at (x0, y0), move along `points` (see pointer_moves), optionally release; one batch, so
        an engine that performs actions itself keeps the timing without round trips."""
        steps = [("down", x0, y0)] + [("move", x, y, ms) for ms, x, y in points]
        self._pointer(kind, steps + ([("up",)] if release else []))


def drag_points(x0, y0, dx, dy, duration_ms, moves, ease=True, hold_ms=0, rng=None):
    """A human-ish path from (x0, y0) by (dx, dy): `moves` steps over `duration_ms`, eased (people speed up,
    then slow down) with a little wobble and timing jitter, the last point exact; then an optional still
    hold. Returns [(ms after the previous point, x, y)]."""
    rng = rng or random.Random()
    points, previous = [], 0.0
    step = duration_ms / moves
    for i in range(1, moves + 1):
        k = i / moves
        e = k * k * (3 - 2 * k) if ease else k
        last = i == moves
        at = step * i + (0 if last else rng.uniform(-0.25, 0.25) * step)
        x = x0 + dx * e + (0 if last else rng.uniform(-1.2, 1.2))
        y = y0 + dy * e + (0 if last else rng.uniform(-1.5, 1.5))
        points.append((max(1.0, at - previous), x, y))
        previous = at
    if hold_ms:
        points.append((hold_ms, points[-1][1], points[-1][2]))
    return points
