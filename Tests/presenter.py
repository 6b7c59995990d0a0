"""A deck's owner over HTTP, as the big screen's tests and bench_stage.py drive it: signed in with a
password, the big screen read (its first visit makes the deck's presentation), its buttons pressed
with the page's csrf token, the presenter link made or revoked, redirects left unfollowed."""
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

    def presenter_link(self, action="make"):
        """Presses `action` (make, revoke) under "Someone else presents" on the deck's share panel; the
        links to the big screen and to the remote it then shows (None, None without a working one)."""
        status, _, panel = self.send("GET", f"/owner/decks/{self.deck}/share")
        assert status == 200, f"the share panel answered {status}"
        csrf = re.search(r'name="csrf" value="([^"]+)"', panel).group(1)
        status, _, _ = self.send("POST", f"/owner/decks/{self.deck}/presenter-link", f"csrf={csrf}&action={action}")
        assert status == 303, f"{action} of the presenter link answered {status}"
        panel = self.send("GET", f"/owner/decks/{self.deck}/share")[2]
        links = [re.search(rf'id="presenter-{name}" class="share-link" value="([^"]+)"', panel)
                 for name in ("screen", "remote")]
        return tuple(m and m.group(1).replace("&amp;", "&") for m in links)
