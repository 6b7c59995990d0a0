"""WebKit (WebCore, JavaScriptCore): Debian's WebKitGTK MiniBrowser driven by WebKitWebDriver (package
webkit2gtk-driver) over the W3C WebDriver HTTP protocol, spoken here with urllib (no client library).

WebKitGTK has no headless mode: the driver gets an Xvfb display of its own (started here, so neither
`make test` nor a person running pytest needs `xvfb-run`). MiniBrowser's window has a toolbar and a
minimum width of about 447 px: a "phone" page is as narrow as that allows (measured, not assumed).
WebKitGTK's WebDriver performs mouse and key actions; pointer actions of type "touch" reach the page
as mouse events (pointerType "mouse", no touch events: touch is an iOS-only part of WebKit's
automation), so this driver refuses them and `supports_touch` is False."""
import base64
import json
import os
import random
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from .base import KEY_CODES, EngineError, Page, wrap
from .ports import free_port

MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"


def start_xvfb(size="1400x1000x24"):
    """An Xvfb server on a free display; returns (process, ":N"). The display is picked here and checked
    (alive, socket present): `-displayfd` was seen to report a display whose socket another X server held,
    then exit."""
    for _ in range(10):
        number = random.randrange(100, 1000)
        if Path(f"/tmp/.X{number}-lock").exists() or Path(f"/tmp/.X11-unix/X{number}").exists():
            continue
        proc = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", size, "-nolisten", "tcp"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while proc.poll() is None and time.monotonic() < deadline:
            if Path(f"/tmp/.X11-unix/X{number}").exists():
                time.sleep(0.2)
                if proc.poll() is None:
                    return proc, f":{number}"
            time.sleep(0.05)
        proc.kill()
        proc.wait()
    raise RuntimeError("could not start Xvfb (is the xvfb package installed?)")


class WebDriverSession:
    """One W3C WebDriver session over HTTP."""

    def __init__(self, base, capabilities, timeout=120):
        self.base = base
        value = self.call("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}}, session=False,
                          timeout=timeout)
        self.id = value["sessionId"]
        self.capabilities = value["capabilities"]

    def call(self, method, path, body=None, session=True, timeout=120):
        url = self.base + (f"/session/{self.id}" if session else "") + path
        data = json.dumps(body if body is not None else {}).encode() if method == "POST" else None
        req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return json.loads(r.read())["value"]
        except urllib.error.HTTPError as e:
            value = json.loads(e.read() or b"{}").get("value", {})
            raise EngineError(f"webkit {method} {path}: {value.get('error')}: {value.get('message')}") from None


class WebKitPage(Page):
    engine = "webkit"
    supports_touch = False

    def __init__(self, session, viewport, touch=False, javascript=True):
        super().__init__(viewport, touch, javascript)
        self.s = session
        self._resize(viewport)

    def _resize(self, viewport):
        # The window includes MiniBrowser's toolbar: size it, measure the viewport, correct the height once.
        self.s.call("POST", "/window/rect", {"width": viewport["width"], "height": viewport["height"]})
        self.goto("about:blank")
        inner = self.evaluate("() => [innerWidth, innerHeight]") if self.javascript else None
        if inner and inner[1] != viewport["height"]:
            extra = viewport["height"] - inner[1]
            self.s.call("POST", "/window/rect", {"width": viewport["width"], "height": viewport["height"] + extra})

    def _call(self, fn, args):
        script = ("const done = arguments[arguments.length - 1];"
                  f"({wrap(fn)})(arguments[0]).then((text) => done({{text}}),"
                  " (e) => done({error: String(e && e.stack || e)}));")
        value = self.s.call("POST", "/execute/async", {"script": script, "args": [args]})
        if value is None or "error" in value:
            raise EngineError(f"webkit: {value and value['error']}")
        return value["text"]

    def goto(self, url):
        self.s.call("POST", "/url", {"url": url})

    def _pointer(self, kind, steps):
        if kind == "touch":
            # WebKitGTK's driver accepts pointerType "touch" but the page gets pointerType "mouse" events
            # and no touch events (seen with 2.50): refused here rather than passed off as touch.
            raise EngineError("webkit: WebKitGTK's WebDriver has no touch input")
        actions = []
        for step in steps:
            if step[0] == "down":
                actions += [{"type": "pointerMove", "x": round(step[1]), "y": round(step[2]), "duration": 0},
                            {"type": "pointerDown", "button": 0}]
            elif step[0] == "move":
                # WebKitGTK dispatches a move at the start of its duration, not at its end (the first move
                # after a press came 1-2 ms after it: an impossible speed): wait first, then move at once.
                actions += [{"type": "pause", "duration": round(step[3])},
                            {"type": "pointerMove", "x": round(step[1]), "y": round(step[2]), "duration": 0}]
            else:
                actions.append({"type": "pointerUp", "button": 0})
        source = {"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": actions}
        self.s.call("POST", "/actions", {"actions": [source]})

    def _keys(self, key):
        code = KEY_CODES.get(key, key)
        source = {"type": "key", "id": "keyboard",
                  "actions": [{"type": "keyDown", "value": code}, {"type": "keyUp", "value": code}]}
        self.s.call("POST", "/actions", {"actions": [source]})

    def click(self, selector):
        element = self.s.call("POST", "/element", {"using": "css selector", "value": selector})
        ref = next(iter(element.values()))
        self.s.call("POST", f"/element/{ref}/click")

    def screenshot(self, path):
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.s.call("GET", "/screenshot")))

    own_browser = None

    def close(self):
        if self.own_browser:
            self.own_browser.close()
            return
        # Cookies are per host, not per port: the next test's server must not see this one's participant.
        try:
            self.s.call("DELETE", "/cookie")
        except EngineError:
            pass
        self.goto("about:blank")


class WebKit:
    """WebKitWebDriver on its own Xvfb; one MiniBrowser session at a time (the driver allows one), reused
    by pages with the same JavaScript setting (a scripts-off page needs a MiniBrowser started with
    --enable-javascript=false: WebDriver has no command for it). Reduced-motion pages come from a second
    driver started with GTK animations off."""

    name = "webkit"

    def __init__(self, reduced_motion=False, screen="1400x1000x24"):
        for tool in ("Xvfb", "WebKitWebDriver"):
            if not shutil.which(tool):
                raise RuntimeError(f"{tool} missing: `make apt` installs xvfb and webkit2gtk-driver")
        self.xvfb, display = start_xvfb(screen)
        self.port = free_port()
        self.log = tempfile.TemporaryFile()
        env = dict(os.environ, DISPLAY=display)
        self.variants = {}
        self.config = None
        if reduced_motion:
            # WebKitGTK answers prefers-reduced-motion from GTK's gtk-enable-animations setting.
            self.config = Path(tempfile.mkdtemp(prefix="swipedeck-gtk-"))
            (self.config / "gtk-3.0").mkdir()
            (self.config / "gtk-3.0" / "settings.ini").write_text("[Settings]\ngtk-enable-animations=0\n")
            env["XDG_CONFIG_HOME"] = str(self.config)
        self.env = env
        self._start_driver()
        self.session = None
        self.session_js = None
        try:
            self._wait_ready()
            self._open(True)
        except BaseException:
            self.close()
            raise
        self.version = "WebKitGTK " + self.session.capabilities.get("browserVersion", "?")

    def _start_driver(self):
        self.driver = subprocess.Popen(["WebKitWebDriver", f"--port={self.port}"], env=self.env,
                                       stdout=self.log, stderr=subprocess.STDOUT)
        self.base = f"http://127.0.0.1:{self.port}"

    def _wait_ready(self):
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.base + "/status", timeout=2):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("WebKitWebDriver did not start")

    def _open(self, javascript):
        if self.session:
            try:
                self.session.call("DELETE", "", timeout=20)
            except (EngineError, OSError):
                pass  # a session that no longer answers is replaced below all the same
            self.session = None
        args = ["--automation"] + ([] if javascript else ["--enable-javascript=false"])
        caps = {"webkitgtk:browserOptions": {"binary": MINIBROWSER, "args": args}}
        try:
            self.session = WebDriverSession(self.base, caps, timeout=60)
        except (EngineError, OSError):
            # On a loaded machine (three pytest workers on two cores) a MiniBrowser was seen never to
            # answer its new session, and every later page of the module failed: a new driver, once.
            self.driver.kill()
            self.driver.wait(10)
            self.port = free_port()
            self._start_driver()
            self._wait_ready()
            self.session = WebDriverSession(self.base, caps, timeout=60)
        self.session_js = javascript

    def new_page(self, viewport, touch=False, javascript=True, reduced_motion=False):
        if reduced_motion and not self.config:
            # Another driver whose browsers start with GTK animations off (a setting read at start-up).
            if "reduced" not in self.variants:
                self.variants["reduced"] = WebKit(reduced_motion=True)
            return self.variants["reduced"].new_page(viewport, touch, javascript)
        if self.session_js != javascript:
            self._open(javascript)
        return WebKitPage(self.session, viewport, touch, javascript)

    def new_person(self, viewport, touch=False):
        """A page with cookies of its own that stays open beside this browser's page: the driver holds
        one session, so another driver (and MiniBrowser, on an Xvfb as large as the viewport), which
        the page's close() stops."""
        width, height = max(1400, viewport["width"] + 80), max(1000, viewport["height"] + 120)
        browser = WebKit(screen=f"{width}x{height}x24")
        try:
            page = browser.new_page(viewport, touch)
        except BaseException:
            browser.close()
            raise
        page.own_browser = browser
        return page

    def close(self):
        for variant in self.variants.values():
            variant.close()
        if self.config:
            shutil.rmtree(self.config, ignore_errors=True)
        try:
            if self.session:
                self.session.call("DELETE", "", timeout=20)
        except (EngineError, OSError):
            pass
        finally:
            self.driver.terminate()
            self.driver.wait(10)
            self.xvfb.terminate()
            self.xvfb.wait(10)
