"""Gecko (SpiderMonkey): Debian's firefox-esr, headless, driven over the WebDriver BiDi it speaks when
started with --remote-debugging-port. Each page is a tab in its own user context (own cookies and
storage). Pointer actions of type "touch" are BiDi's input.performActions with pointerType "touch"."""
import base64
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from .base import KEY_CODES, EngineError, Page, wrap
from .bidi import BiDi
from .ports import free_port

# A quiet, test-only profile: no first-run pages, updates, telemetry or background connections.
PREFS = {
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.aboutwelcome.enabled": False,
    "app.update.disabledForTesting": True,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "extensions.update.enabled": False,
    "browser.tabs.warnOnClose": False,
}


class FirefoxPage(Page):
    engine = "firefox"
    supports_touch = True
    # BiDi's touch actions reach the page as touch and pointer events but never pan it: a plain long page
    # without any script or touch-action does not scroll either (seen with ESR 153, headless).
    touch_scrolls = False

    def __init__(self, browser, viewport, touch=False, javascript=True):
        super().__init__(viewport, touch, javascript)
        self.b = browser
        self.user_context = browser.bidi.send("browser.createUserContext")["userContext"]
        created = browser.bidi.send("browsingContext.create", {"type": "tab", "userContext": self.user_context})
        self.context = created["context"]
        self.errors = browser.errors.setdefault(self.context, [])
        self.b.bidi.send("browsingContext.setViewport", {"context": self.context, "viewport": viewport})
        self.target = {"context": self.context}

    def _call(self, fn, args):
        result = self.b.bidi.send("script.callFunction", {
            "functionDeclaration": wrap(fn), "arguments": [{"type": "string", "value": args}],
            "target": self.target, "awaitPromise": True, "resultOwnership": "none"}, timeout=60)
        if result["type"] == "exception":
            raise EngineError(f"firefox: {result['exceptionDetails'].get('text')}")
        value = result["result"]
        return value.get("value") if value["type"] == "string" else None

    # With javascript.enabled false no script runs in the page, not even BiDi's (script.callFunction never
    # answers, in a sandbox too): the DOM is read through browsingContext.locateNodes instead.

    def _nodes(self, selector, depth=0, count=None):
        params = {"context": self.context, "locator": {"type": "css", "value": selector},
                  "serializationOptions": {"maxDomDepth": depth}}
        if count:
            params["maxNodeCount"] = count
        return self.b.bidi.send("browsingContext.locateNodes", params)["nodes"]

    def attr(self, selector, name):
        if self.javascript:
            return super().attr(selector, name)
        nodes = self._nodes(selector, count=1)
        return nodes[0]["value"].get("attributes", {}).get(name) if nodes else None

    def text(self, selector):
        if self.javascript:
            return super().text(selector)
        nodes = self._nodes(selector, depth=20, count=1)

        def walk(node):
            value = node["value"]
            return value.get("nodeValue") or "".join(walk(child) for child in value.get("children") or [])
        return walk(nodes[0]).strip() if nodes else None

    def count(self, selector):
        return super().count(selector) if self.javascript else len(self._nodes(selector))

    def goto(self, url):
        self.b.bidi.send("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def _pointer(self, kind, steps):
        actions = []
        for step in steps:
            if step[0] == "down":
                actions += [{"type": "pointerMove", "x": round(step[1]), "y": round(step[2]), "duration": 0},
                            {"type": "pointerDown", "button": 0}]
            elif step[0] == "move":
                actions.append({"type": "pointerMove", "x": round(step[1]), "y": round(step[2]),
                                "duration": round(step[3])})
            else:
                actions.append({"type": "pointerUp", "button": 0})
        source = {"type": "pointer", "id": kind, "parameters": {"pointerType": kind}, "actions": actions}
        self.b.bidi.send("input.performActions", {"context": self.context, "actions": [source]})

    def _keys(self, key):
        code = KEY_CODES.get(key, key)
        source = {"type": "key", "id": "keyboard",
                  "actions": [{"type": "keyDown", "value": code}, {"type": "keyUp", "value": code}]}
        self.b.bidi.send("input.performActions", {"context": self.context, "actions": [source]})

    def click(self, selector):
        # Located without page script (works with scripting off); the move's origin is the element's centre.
        nodes = self.b.bidi.send("browsingContext.locateNodes", {
            "context": self.context, "locator": {"type": "css", "value": selector}, "maxNodeCount": 1})["nodes"]
        if not nodes:
            raise EngineError(f"firefox: no element matches {selector}")
        origin = {"type": "element", "element": {"sharedId": nodes[0]["sharedId"]}}
        actions = [{"type": "pointerMove", "x": 0, "y": 0, "origin": origin, "duration": 0},
                   {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]
        source = {"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": actions}
        self.b.bidi.send("input.performActions", {"context": self.context, "actions": [source]})

    def screenshot(self, path):
        data = self.b.bidi.send("browsingContext.captureScreenshot", {"context": self.context})["data"]
        Path(path).write_bytes(base64.b64decode(data))

    def page_errors(self):
        return list(self.errors)

    def close(self):
        try:
            self.b.bidi.send("browsingContext.close", {"context": self.context})
        finally:
            self.b.bidi.send("browser.removeUserContext", {"userContext": self.user_context})


class Firefox:
    """One headless firefox-esr with a throw-away profile, and its BiDi session. Pages with scripts off
    or with reduced motion live in another firefox started with javascript.enabled false or
    ui.prefersReducedMotion 1 (ESR 153 has neither in BiDi's emulation module), started when first needed."""

    name = "firefox"

    def __init__(self, prefs=None):
        binary = shutil.which("firefox-esr") or shutil.which("firefox")
        if not binary:
            raise RuntimeError("firefox-esr missing: `make apt` installs it")
        self.profile = Path(tempfile.mkdtemp(prefix="swipedeck-firefox-"))
        (self.profile / "user.js").write_text("".join(
            f'user_pref("{k}", {str(v).lower() if isinstance(v, bool) else repr(v)});\n'
            for k, v in {**PREFS, **(prefs or {})}.items()))
        self.variants = {}
        self.log = open(self.profile / "firefox.log", "wb")
        port = free_port()
        self.proc = subprocess.Popen(
            [binary, "--headless", "--no-remote", "--profile", str(self.profile),
             "--remote-debugging-port", str(port), "about:blank"],
            stdout=self.log, stderr=subprocess.STDOUT)
        url = self._wait_listening()
        self.bidi = BiDi(url + "/session")
        caps = self.bidi.send("session.new", {"capabilities": {"alwaysMatch": {"acceptInsecureCerts": True}}})
        self.version = "Firefox " + caps["capabilities"]["browserVersion"]
        self.errors = {}
        self.bidi.on(self._event)
        self.bidi.send("session.subscribe", {"events": ["log.entryAdded"]})

    def _wait_listening(self):
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            found = re.search(rb"WebDriver BiDi listening on (ws://\S+)", (self.profile / "firefox.log").read_bytes())
            if found:
                return found.group(1).decode()
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError("firefox did not start its BiDi server: " + (self.profile / "firefox.log").read_text())

    def _event(self, method, params):
        if method == "log.entryAdded" and params.get("type") == "javascript" and params.get("level") == "error":
            context = params.get("source", {}).get("context")
            self.errors.setdefault(context, []).append(params.get("text"))

    def new_person(self, viewport, touch=False):
        """A page with cookies of its own beside this browser's others (each page has its own)."""
        return self.new_page(viewport, touch)

    def new_page(self, viewport, touch=False, javascript=True, reduced_motion=False):
        if javascript and not reduced_motion:
            return FirefoxPage(self, viewport, touch, javascript)
        key = (javascript, reduced_motion)
        if key not in self.variants:
            prefs = {"javascript.enabled": javascript, "ui.prefersReducedMotion": 1 if reduced_motion else 0}
            self.variants[key] = Firefox(prefs)
        return FirefoxPage(self.variants[key], viewport, touch, javascript)

    def close(self):
        for variant in self.variants.values():
            variant.close()
        try:
            self.bidi.send("browser.close", timeout=20)
        except EngineError:
            pass
        self.bidi.close()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)
