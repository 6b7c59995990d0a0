"""Helpers shared by the system suites: realistic drag traces and small HTTP helpers.

A trace here follows the wire format of docs/DESIGN.md and passes `validate` for the `standard`
profile (left/right, distance-or-fling): 30–60 samples about 16 ms apart with jitter, an
eased drag to 0.5–0.9 card widths with a little vertical wander, so it is never `suspect`.
"""
import http.client
import json
import random

from signed_ids import pid  # noqa: F401 (re-exported for the suites)

CARD_W, CARD_H, VIEW_W, VIEW_H = 320, 440, 390, 844


def drag_trace(direction="right", rng=None, samples=None):
    """A valid, human-looking drag that throws the card `direction` (left or right)."""
    rng = rng or random.Random()
    n = samples or rng.randint(30, 60)
    sign = 1 if direction == "right" else -1
    reach = rng.uniform(0.5, 0.9) * CARD_W
    drift = rng.uniform(-30, 30)
    t, x, y = [], [], []
    now = rng.uniform(0, 4)
    for i in range(n):
        p = (i + 1) / n
        ease = p * p * (3 - 2 * p)  # smoothstep: slow start, fast middle, slow end
        t.append(round(now, 2))
        x.append(round(sign * reach * ease + rng.uniform(-0.6, 0.6), 2))
        y.append(round(drift * ease + rng.uniform(-0.6, 0.6), 2))
        now += rng.uniform(12.0, 20.0)
    return {
        "t": t, "x": x, "y": y, "w": CARD_W, "h": CARD_H, "vw": VIEW_W, "vh": VIEW_H,
        "gx": round(rng.uniform(40, 280), 1), "gy": round(rng.uniform(60, 380), 1),
    }


def swipe_body(card, participant, direction="right", rng=None, decision_ms=None):
    rng = rng or random.Random()
    return {
        "card": card, "direction": direction, "input": "drag", "participant": pid(participant),
        "trace": drag_trace(direction, rng),
        "decisionMs": decision_ms if decision_ms is not None else round(rng.uniform(300, 5000), 1),
    }


def card_ids(server, deck="getaways"):
    """All card ids of a deck, in deck order (pages through the cards API with a fresh participant)."""
    ids, cursor = [], None
    while True:
        q = f"/api/v1/decks/{deck}/cards?limit=100&participant={pid(f'lister-{random.randrange(1 << 30)}')}"
        if cursor:
            q += f"&cursor={cursor}"
        status, _, body = server.request("GET", q)
        assert status == 200, body
        ids += [c["id"] for c in body["cards"]]
        cursor = body["nextCursor"]
        if not cursor:
            return ids


def raw_request(port, method, path, body=b"", headers=None, timeout=30):
    """One request over a fresh connection, sending `body` bytes exactly as given.
    Returns (status, headers dict with lower-case names, body bytes)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def error_code(raw):
    try:
        return json.loads(raw)["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None
