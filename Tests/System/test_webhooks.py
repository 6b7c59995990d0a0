"""Signed webhooks against a real receiver (issue 29, item 4).

A small HTTP server on 127.0.0.1 stands in for an owner's receiver; the servers run with
`--webhook-allow-private` (loopback is refused otherwise). Checked: the signature as README
§ Webhooks tells a receiver to check it, retries after a 500, a delivery that survives SIGTERM
and a new start, and two servers on one PostgreSQL sending each delivery once.
"""
import hashlib
import hmac
import json
import random
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from sd_helpers import card_ids, raw_request, swipe_body

ADMIN_TOKEN = "test-admin-token"  # the shared fixture starts every server with it
AUTH = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
HOOKS = "/api/v1/decks/getaways/webhooks"
ALLOW = ["--webhook-allow-private", "--rate-participant", "0"]


class Receiver:
    """Records every POST (headers, body, the status answered) and answers the next status of
    `answers` (then 200)."""

    def __init__(self):
        self.requests, self.answers, self.lock = [], [], threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver.lock:
                    status = receiver.answers.pop(0) if receiver.answers else 200
                    receiver.requests.append(({k.lower(): v for k, v in self.headers.items()}, body, status))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/hooks"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def received(self):
        with self.lock:
            return list(self.requests)

    def wait_for(self, predicate, timeout=15):
        deadline = time.time() + timeout
        while time.time() < deadline:
            got = self.received()
            if predicate(got):
                return got
            time.sleep(0.05)
        raise AssertionError(f"receiver got {len(self.received())} requests: {self.received()[-3:]}")


@pytest.fixture()
def receiver():
    r = Receiver()
    yield r
    r.httpd.shutdown()


def register(server, url, events):
    status, _, body = server.request("POST", HOOKS, {"url": url, "events": events}, AUTH)
    assert status == 201, body
    return body["id"], body["secret"]


def swipe(server, card, participant, key, rng):
    status, _, raw = raw_request(server.port, "POST", "/api/v1/decks/getaways/swipes",
                                 json.dumps(swipe_body(card, participant, "right", rng)).encode(),
                                 {"Content-Type": "application/json", "Idempotency-Key": key})
    assert status == 201, raw[:300]


def verified(headers, body, secret):
    """The README's check: HMAC-SHA256(secret, timestamp + "." + body), compared in constant time."""
    expected = hmac.new(secret.encode(), headers["x-swipedeck-timestamp"].encode() + b"." + body,
                        hashlib.sha256).hexdigest()
    return hmac.compare_digest("sha256=" + expected, headers["x-swipedeck-signature"])


def deliveries(server, hook):
    status, _, body = server.request("GET", f"{HOOKS}/{hook}/deliveries", headers=AUTH)
    assert status == 200, body
    return body["deliveries"]


def swipes_of(body):
    return [s["id"] for s in json.loads(body)["data"]["swipes"]]


def test_signed_delivery_retried_after_500(make_server, receiver):
    server = make_server(extra_args=ALLOW)
    hook, secret = register(server, receiver.url, ["swipe.created"])
    receiver.answers = [500]
    cards = card_ids(server)
    rng = random.Random(29)
    keys = [f"hooked-{i}" for i in range(3)]
    for i, key in enumerate(keys):
        swipe(server, cards[i], "hooked", key, rng)

    def accepted(requests):
        return sorted(k for _, b, status in requests if status == 200 for k in swipes_of(b))

    got = receiver.wait_for(lambda r: accepted(r) == keys)
    for headers, body, _ in got:
        assert headers["content-type"] == "application/json"
        assert headers["x-swipedeck-event"] == "swipe.created"
        assert verified(headers, body, secret)
        assert not verified(headers, body + b" ", secret)
        assert not verified(headers, body, secret + "x")
    # The first attempt got the 500; its retry is the same delivery: same id, same body.
    first_headers, first_body, first_status = got[0]
    assert first_status == 500
    retries = [(h, b) for h, b, status in got[1:] if h["x-swipedeck-delivery"] == first_headers["x-swipedeck-delivery"]]
    assert len(retries) == 1 and retries[0][1] == first_body
    payload = json.loads(first_body)
    assert list(payload) == ["id", "event", "deck", "at", "data"]
    assert payload["id"] == first_headers["x-swipedeck-delivery"] and payload["event"] == "swipe.created"
    assert payload["deck"] == "getaways"
    assert {s["card"] for _, b, _ in got for s in json.loads(b)["data"]["swipes"]} == set(cards[:3])
    # The log: the first delivery delivered on its second attempt, after a 500 (the receiver may
    # answer a moment before the server records it).
    deadline = time.time() + 5
    while any(d["status"] != "delivered" for d in deliveries(server, hook)) and time.time() < deadline:
        time.sleep(0.05)
    log = {d["id"]: d for d in deliveries(server, hook)}
    first = log[payload["id"]]
    assert first["status"] == "delivered" and first["attempts"] == 2 and first["lastStatus"] == 200, first
    assert all(d["status"] == "delivered" for d in log.values()), log


def test_delivery_survives_a_restart(make_server, receiver):
    server = make_server(extra_args=ALLOW)
    hook, secret = register(server, receiver.url, ["swipe.created"])
    receiver.answers = [500] * 1000  # down until told otherwise
    cards = card_ids(server)
    swipe(server, cards[0], "restarted", "restart-0", random.Random(1))
    receiver.wait_for(lambda r: len(r) >= 1)
    server.stop()  # SIGTERM while the delivery waits for its retry
    with receiver.lock:
        before = len(receiver.requests)
        receiver.answers = []
    server.start()
    got = receiver.wait_for(lambda r: len(r) > before, timeout=20)
    headers, body, _ = got[-1]
    assert verified(headers, body, secret)
    assert swipes_of(body) == ["restart-0"]
    deadline = time.time() + 5
    while deliveries(server, hook)[0]["status"] != "delivered" and time.time() < deadline:
        time.sleep(0.05)
    assert deliveries(server, hook)[0]["status"] == "delivered"


def test_two_servers_deliver_each_event_once(make_server, receiver, db_engine):
    if db_engine != "postgres":
        pytest.skip("several servers share PostgreSQL; an SQLite file is served by one process")
    first = make_server(extra_args=ALLOW, db_name="shared")
    second = make_server(extra_args=ALLOW, db_name="shared")
    hook, secret = register(first, receiver.url, ["swipe.created"])
    time.sleep(2.5)  # the second server reads the hooked decks within 2 s (SwipeNotices.refreshInterval)
    cards = card_ids(first)
    rng = random.Random(2)
    keys = []
    for i in range(60):
        key = f"two-{i}"
        swipe(rng.choice([first, second]), cards[i % len(cards)], f"two-{i // len(cards)}", key, rng)
        keys.append(key)
        time.sleep(rng.uniform(0, 0.05))

    def all_swipes(requests):
        return sorted(k for _, b, _ in requests for k in swipes_of(b))

    got = receiver.wait_for(lambda r: len(all_swipes(r)) >= len(keys), timeout=30)
    time.sleep(2)  # anything sent twice would arrive by now
    got = receiver.received()
    ids = [h["x-swipedeck-delivery"] for h, _, _ in got]
    assert len(ids) == len(set(ids)), "a delivery was sent twice"
    assert all(verified(h, b, secret) for h, b, _ in got)
    assert all_swipes(got) == sorted(keys)
    # At most one swipe.created a second per hook: the deliveries' due times are a second apart.
    due = [float(r[0]) for r in first.sql("SELECT dueAt FROM webhookDeliveries ORDER BY dueAt")]
    assert all(b - a >= 0.999 for a, b in zip(due, due[1:])), due
    deadline = time.time() + 5
    while any(d["status"] != "delivered" for d in deliveries(second, hook)) and time.time() < deadline:
        time.sleep(0.05)
    assert all(d["status"] == "delivered" for d in deliveries(second, hook))
