"""Chromium (Blink, V8): Debian's /usr/bin/chromium through Playwright, pointer input through CDP with
explicit timestamps (as deckkit.Mouse does), so the page records the planned timing on a loaded machine."""
import time

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

from .base import EngineError, Page, wrap


class ChromiumPage(Page):
    engine = "chromium"
    supports_touch = True
    touch_scrolls = True

    def __init__(self, browser, viewport, touch=False, javascript=True, reduced_motion=False):
        super().__init__(viewport, touch, javascript)
        self.ctx = browser.new_context(viewport=viewport, has_touch=touch, java_script_enabled=javascript,
                                       reduced_motion="reduce" if reduced_motion else "no-preference")
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(10_000)
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.cdp = self.ctx.new_cdp_session(self.page)
        self.x = self.y = 0.0
        self.down = False

    def _call(self, fn, args):
        try:
            return self.page.evaluate(wrap(fn), args)
        except PlaywrightError as e:
            raise EngineError(f"chromium: {e}") from None

    def goto(self, url):
        self.page.goto(url)

    def _pointer(self, kind, steps):
        start = time.perf_counter()
        stamp = time.time()
        at = 0.0
        for step in steps:
            if step[0] == "move":
                at += step[3] / 1000
                wait = start + at - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
            self._send(kind, step, stamp + at)

    def _send(self, kind, step, t):
        if kind == "touch":
            if step[0] == "up":
                self.cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": [], "timestamp": t})
                return
            self.x, self.y = step[1], step[2]
            point = {"x": self.x, "y": self.y, "id": 1, "radiusX": 4, "radiusY": 4, "force": 1}
            kind_name = "touchStart" if step[0] == "down" else "touchMove"
            self.cdp.send("Input.dispatchTouchEvent", {"type": kind_name, "touchPoints": [point], "timestamp": t})
            return
        if step[0] == "down":
            self.x, self.y = step[1], step[2]
            self._mouse("mouseMoved", t)
            self._mouse("mousePressed", t, button="left", buttons=1, clickCount=1)
            self.down = True
        elif step[0] == "move":
            self.x, self.y = step[1], step[2]
            self._mouse("mouseMoved", t, **({"button": "left", "buttons": 1} if self.down else {}))
        else:
            self._mouse("mouseReleased", t, button="left", buttons=0, clickCount=1)
            self.down = False

    def _mouse(self, kind, t, **kw):
        self.cdp.send("Input.dispatchMouseEvent", {"type": kind, "x": self.x, "y": self.y, "timestamp": t, **kw})

    def _keys(self, key):
        self.page.keyboard.press(key)

    def click(self, selector):
        self.page.click(selector)

    def screenshot(self, path):
        self.page.screenshot(path=str(path))

    def page_errors(self):
        return list(self.errors)

    def close(self):
        self.ctx.close()


class Chromium:
    """One headless Chromium; each page gets its own context (cookies, storage)."""

    name = "chromium"

    def __init__(self):
        self.pw = sync_playwright().start()
        self.browser = self.pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        self.version = self.browser.version

    def new_person(self, viewport, touch=False):
        """A page with cookies of its own beside this browser's others (each page has its own)."""
        return self.new_page(viewport, touch)

    def new_page(self, viewport, touch=False, javascript=True, reduced_motion=False):
        return ChromiumPage(self.browser, viewport, touch, javascript, reduced_motion)

    def close(self):
        self.browser.close()
        self.pw.stop()
