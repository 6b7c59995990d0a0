"""A deck's owner over HTTP, as the big screen's tests and bench_stage.py drive it: signed in with a
password, the big screen read (its first visit makes the deck's presentation), its buttons pressed
with the page's csrf token, redirects left unfollowed."""
import json
import re
import urllib.error
import urllib.parse
import urllib.request


class Presenter:
    class _Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    def __init__(self, base, name, password, deck="getaways"):
        self.base, self.deck, self.cookie = base, deck, None
        form = urllib.parse.urlencode({"name": name, "password": password, "next": "/owner"})
        status, headers, _ = self.send("POST", "/owner/sign-in", form)
        assert status == 303, f"sign-in of {name} answered {status}"
        self.cookie = headers["Set-Cookie"].split(";")[0]

    def send(self, method, path, form=None):
        """(status, headers, text) of one request with the session and the server's own Origin."""
        headers = {"Origin": self.base}
        if form is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if self.cookie:
            headers["Cookie"] = self.cookie
        request = urllib.request.Request(self.base + path, data=form and form.encode(), method=method, headers=headers)
        try:
            with urllib.request.build_opener(self._Stay).open(request, timeout=30) as r:
                return r.status, r.headers, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read().decode()

    def screen(self):
        """The big screen's HTML."""
        status, _, html = self.send("GET", f"/d/{self.deck}/present")
        assert status == 200, f"the big screen answered {status}"
        return html

    def csrf(self):
        return re.search(r'name="csrf" value="([^"]+)"', self.screen()).group(1)

    def state(self):
        """The deck's stage as the big screen asks for it (`/d/{deck}/present/state`)."""
        status, _, text = self.send("GET", f"/d/{self.deck}/present/state")
        assert status == 200, f"the stage answered {status}"
        return json.loads(text)

    def press(self, action, csrf=None, extra=""):
        """Presses a control (`action`: reveal, hide, lock, unlock, hostPaced, selfPaced, next, cardTimer;
        `extra`: more form fields, such as `&cardSeconds=10`)."""
        form = f"csrf={csrf or self.csrf()}&action={action}{extra}"
        status, headers, _ = self.send("POST", f"/d/{self.deck}/present", form)
        assert status == 303 and headers["Location"] == f"/d/{self.deck}/present", (status, action)
