"""Hostile input against a running server: each case gets exactly its documented status and
error code, and nothing ever gets a 5xx or kills the server.

Decisions documented here (and in the OpenAPI document):
- `"NaN"`, `"Infinity"`, `"-Infinity"` as JSON *strings* in a trace decode to the IEEE values
  and are refused by the physics check as 422 `malformed` (the rule is named).
- Bare `NaN` / `Infinity` tokens are not JSON: 400 `malformed_json`. So is a number too large
  for a double (`1e999`) or for an int64 card id.
- Slowloris-style partial bodies are out of scope here.
"""
import json
import random
import threading

import pytest

from sd_helpers import card_ids, drag_trace, error_code, pid, raw_request, swipe_body

SWIPES = "/api/v1/decks/getaways/swipes"
JSON = {"Content-Type": "application/json"}


def post(server, body, headers=None, path=SWIPES):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return raw_request(server.port, "POST", path, data, {**JSON, **(headers or {})})


def expect(result, status, code=None):
    got_status, headers, raw = result
    assert got_status == status, (got_status, raw[:300])
    if code is not None:
        assert error_code(raw) == code, raw[:300]
    return headers


@pytest.fixture()
def live(make_server):
    """A server with rate limits off, so only the rule under test can refuse."""
    return make_server(extra_args=["--rate-participant", "0", "--rate-ip", "0"])


@pytest.fixture()
def cards(live):
    return card_ids(live)


def test_body_too_large_is_413(live):
    big = b'{"card":1,"direction":"right","pad":"' + b"x" * (3 * 1024 * 1024) + b'"}'
    expect(post(live, big), 413, "body_too_large")
    # Without Content-Length (chunked), the limit is enforced while reading.
    def chunks():
        yield big[: 1024 * 1024]
        yield big[1024 * 1024:]
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", live.port, timeout=30)
    try:
        conn.request("POST", SWIPES, body=chunks(), headers={**JSON, "Transfer-Encoding": "chunked"}, encode_chunked=True)
        r = conn.getresponse()
        raw = r.read()
        assert r.status == 413, (r.status, raw[:200])
        assert error_code(raw) == "body_too_large"
    except (ConnectionResetError, BrokenPipeError):
        pass  # the server may close the connection after answering before we finish sending
    finally:
        conn.close()
    assert live.request("GET", "/healthz")[0] == 200


@pytest.mark.parametrize("ctype", ["text/plain", "application/x-www-form-urlencoded", "application/xml", None])
def test_wrong_content_type_is_415(live, cards, ctype):
    body = json.dumps(swipe_body(cards[0], "ct-test")).encode()
    headers = {"Content-Type": ctype} if ctype else {}
    expect(raw_request(live.port, "POST", SWIPES, body, headers), 415, "unsupported_media_type")


@pytest.mark.parametrize("raw", [
    b"", b"{", b"{]", b"nul", b"[]", b"null", b"42", b'"text"', b'{"card":1,', b'{"card":"one","direction":"right"}',
    b'{"direction":"right"}', b"{'card':1}", b'{"card":1,"direction":"right"} trailing',
])
def test_malformed_json_is_400(live, raw):
    expect(post(live, raw), 400, "malformed_json")


def test_invalid_utf8_is_400(live, cards):
    body = b'{"card":' + str(cards[0]).encode() + b',"direction":"right","participant":"ab\xff\xfe"}'
    expect(post(live, body), 400, "malformed_json")
    body = b'{"card":' + str(cards[0]).encode() + b',"direction":"\xc3\x28"}'
    expect(post(live, body), 400, "malformed_json")


@pytest.mark.parametrize("depth", [600, 10_000, 100_000])
def test_deeply_nested_json_is_400_not_a_crash(live, cards, depth):
    nested = b"[" * depth + b"]" * depth
    expect(post(live, b'{"card":' + str(cards[0]).encode() + b',"direction":"right","extra":' + nested + b"}"), 400, "malformed_json")
    expect(post(live, b'{"card":' + b"[" * depth + b"1" + b"]" * depth + b"}"), 400, "malformed_json")
    objs = b'{"a":' * depth + b"1" + b"}" * depth
    expect(post(live, objs), 400, "malformed_json")
    assert live.request("GET", "/healthz")[0] == 200


def test_nan_and_infinity(live, cards):
    rng = random.Random(1)
    # Strings: decoded, then refused by the physics as `malformed` (422).
    for bad in ["NaN", "Infinity", "-Infinity"]:
        b = swipe_body(cards[0], "nan-p", rng=rng)
        b["trace"]["x"][3] = bad
        expect(post(live, b), 422, "malformed")
        b = swipe_body(cards[0], "nan-p", rng=rng)
        b["trace"]["w"] = bad
        expect(post(live, b), 422, "malformed")
    # Bare tokens are not JSON: 400.
    good = json.dumps(swipe_body(cards[0], "nan-p", rng=rng))
    for token in [b"NaN", b"Infinity", b"-Infinity", b"1e999", b"-1e999"]:
        body = good.replace('"w": 320', '"w": ' + token.decode()).encode()
        assert body != good.encode()
        expect(post(live, body), 400, "malformed_json")
    # A NaN decisionMs (string) is not a number at all: 400.
    b = swipe_body(cards[0], "nan-p", rng=rng)
    b["decisionMs"] = "NaN"
    expect(post(live, b), 400, "malformed_json")


def test_100000_samples_is_too_long(live, cards):
    n = 100_000
    trace = {"t": list(range(n)), "x": [0] * n, "y": [0] * n, "w": 320, "h": 440, "vw": 390, "vh": 844, "gx": 160, "gy": 220}
    body = json.dumps({"card": cards[0], "direction": "right", "input": "drag", "participant": pid("long-p"), "trace": trace}).encode()
    assert len(body) < 2 * 1024 * 1024  # under the body limit: refused by the physics rule, not by size
    expect(post(live, body), 422, "too_long")


def test_physics_rules_are_named(live, cards):
    rng = random.Random(2)

    def with_trace(mutate):
        b = swipe_body(cards[1], "rules-p", rng=rng)
        mutate(b["trace"])
        return b

    expect(post(live, with_trace(lambda t: t.update(w=-320))), 422, "size_out_of_range")
    expect(post(live, with_trace(lambda t: t.update(h=-1, vh=-844))), 422, "size_out_of_range")
    expect(post(live, with_trace(lambda t: t.update(gx=-5))), 422, "size_out_of_range")

    def backwards(t):
        t["t"][10], t["t"][11] = t["t"][11], t["t"][10]
    expect(post(live, with_trace(backwards)), 422, "non_monotonic_time")
    expect(post(live, with_trace(lambda t: t["t"].__setitem__(0, -5))), 422, "non_monotonic_time")

    def teleport(t):
        t["x"][5] += 5000
    expect(post(live, with_trace(teleport)), 422, "impossible_speed")

    def short_arrays(t):
        t["x"].pop()
    expect(post(live, with_trace(short_arrays)), 422, "malformed")
    expect(post(live, with_trace(lambda t: t.update(t=[0], x=[0], y=[0]))), 422, "too_few_samples")

    # A trace that throws right, claimed as left.
    b = swipe_body(cards[1], "rules-p", rng=rng)
    b["direction"] = "left"
    expect(post(live, b), 422, "decision_mismatch")
    # A trace that springs back.
    b = swipe_body(cards[1], "rules-p", rng=rng)
    b["trace"]["x"] = [v / 20 for v in b["trace"]["x"]]
    expect(post(live, b), 422, "not_a_throw")
    # The refusals were logged, and nothing was stored for the participant.
    status, _, hist = live.request("GET", f"/api/v1/decks/getaways/history?participant={pid('rules-p')}")
    assert status == 200 and hist["swipes"] == []


def test_unknown_deck_and_card_are_404(live, cards):
    expect(post(live, swipe_body(cards[0], "nf-p"), path="/api/v1/decks/no-such-deck/swipes"), 404, "not_found")
    expect(post(live, swipe_body(max(cards) + 1000, "nf-p")), 404, "not_found")
    expect(post(live, swipe_body(9223372036854775807, "nf-p")), 404, "not_found")
    expect(post(live, swipe_body(-1, "nf-p")), 404, "not_found")
    # Too large for an int64: not a valid card id at all.
    body = json.dumps(swipe_body(cards[0], "nf-p")).replace(f'"card": {cards[0]}', '"card": 99999999999999999999999').encode()
    expect(post(live, body), 400, "malformed_json")
    for path in ["/api/v1/decks/getaways/cards/99999999999999999999999", "/d/getaways/cards/99999999999999999999999",
                 "/d/getaways/cards/-1", "/api/v1/swipes/99999999999999999999999", "/api/v1/decks/" + "a" * 5000]:
        status, _, _ = raw_request(live.port, "GET", path)
        assert status == 404, path
    status, _, raw = raw_request(live.port, "DELETE", f"/api/v1/swipes/99999999999999999999999?participant={pid('nf-p')}")
    assert status == 404 and error_code(raw) == "not_found"


def test_duplicates_conflict_or_replay(live, cards):
    rng = random.Random(3)
    body = json.dumps(swipe_body(cards[2], "dup-p", rng=rng)).encode()
    first = post(live, body, {"Idempotency-Key": "dup-key-1"})
    assert first[0] == 201 and "idempotent-replayed" not in first[1]
    # The same key and body: the stored answer, replayed.
    again = post(live, body, {"Idempotency-Key": "dup-key-1"})
    assert again[0] == 201 and again[1].get("idempotent-replayed") == "true"
    assert json.loads(again[2]) == json.loads(first[2])
    # The same key, another body: refused.
    other = json.dumps(swipe_body(cards[3], "dup-p", rng=rng)).encode()
    expect(post(live, other, {"Idempotency-Key": "dup-key-1"}), 422, "idempotency_mismatch")
    # Another key, the same participant and card: already swiped.
    expect(post(live, body, {"Idempotency-Key": "dup-key-2"}), 409, "already_swiped")
    # Concurrent duplicates of one key: exactly one row, every answer 201.
    key = "dup-key-concurrent"
    body = json.dumps(swipe_body(cards[4], "dup-p", rng=rng)).encode()
    results = []
    threads = [threading.Thread(target=lambda: results.append(post(live, body, {"Idempotency-Key": key}))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [r[0] for r in results] == [201] * 8
    assert sum(1 for r in results if r[1].get("idempotent-replayed") == "true") == 7
    status, _, hist = live.request("GET", f"/api/v1/decks/getaways/history?participant={pid('dup-p')}")
    assert sorted(s["id"] for s in hist["swipes"]) == ["dup-key-1", key]
    expect(post(live, body, {"Idempotency-Key": "bad key with spaces"}), 400, "invalid_idempotency_key")
    expect(post(live, body, {"Idempotency-Key": "k" * 129}), 400, "invalid_idempotency_key")


def burst(server, n, headers_for):
    """n POSTs in quick succession (bad bodies: the limiter runs before the handler)."""
    out = []
    for i in range(n):
        out.append(raw_request(server.port, "POST", SWIPES, b"{}", {**JSON, **headers_for(i)}))
    return out


def test_burst_from_one_participant_is_429(make_server):
    """The participant budget counts decisions of one identity, named by the cookie or the body: a
    batch counts as its items, and another participant from the same IP keeps its own budget."""
    s = make_server(extra_args=["--rate-participant", "5", "--rate-ip", "0"])
    cards = card_ids(s)
    rng = random.Random(9)
    cookie = {"Cookie": f"sd_pid={pid('burster')}"}
    status, _, raw = post(s, swipe_body(cards[0], None, rng=rng) | {"participant": None}, cookie)
    assert status == 201, raw
    swipe_id = json.loads(raw)["swipe"]["id"]
    # Undo attempts are decisions too (the first undoes, the rest find it undone): 5/s, burst 20.
    results = [raw_request(s.port, "DELETE", f"/api/v1/swipes/{swipe_id}", headers=cookie) for _ in range(40)]
    statuses = [r[0] for r in results]
    assert statuses[0] == 200 and 429 in statuses, statuses
    limited = [r for r in results if r[0] == 429]
    assert len(limited) >= 10
    for _, headers, raw in limited:
        assert error_code(raw) == "rate_limited"
        assert int(headers["retry-after"]) >= 1
    # The same identity named in a batch body is limited too: one item per decision.
    items = [swipe_body(c, "batcher", rng=rng) for c in cards[:10]] * 3
    status, _, raw = raw_request(s.port, "POST", SWIPES + "/batch", json.dumps({"swipes": items}).encode(), JSON)
    assert status == 200, raw
    assert sum(1 for r in json.loads(raw)["results"] if r["status"] == 429) >= 5
    # Another participant from the same IP is not limited.
    assert post(s, swipe_body(cards[1], "calm", rng=rng))[0] == 201
    # Reads are never limited.
    assert all(raw_request(s.port, "GET", "/api/v1/decks/getaways", headers=cookie)[0] == 200 for _ in range(20))


def test_burst_from_one_ip_is_429(make_server):
    s = make_server(extra_args=["--rate-participant", "0", "--rate-ip", "20"])
    results = burst(s, 80, lambda i: {"Cookie": f"sd_pid=ip-{i}"})
    statuses = [r[0] for r in results]
    assert 429 in statuses and statuses[0] == 400, statuses
    for _, headers, raw in (r for r in results if r[0] == 429):
        assert error_code(raw) == "rate_limited"
        assert int(headers["retry-after"]) >= 1


def test_default_limits_are_generous(make_server):
    s = make_server()
    cards = card_ids(s)
    rng = random.Random(4)
    # 100 valid swipes from one IP as fast as one client can: none is limited.
    statuses = [post(s, swipe_body(cards[i % len(cards)], f"gen-{i // len(cards)}", rng=rng))[0] for i in range(100)]
    assert statuses == [201] * 100
    # A browser participant swiping a whole deck quickly is not limited either.
    statuses = [post(s, swipe_body(c, None, rng=rng) | {"participant": None}, {"Cookie": f"sd_pid={pid('fastthumb')}"})[0] for c in cards]
    assert 429 not in statuses


def test_server_survives_everything(live):
    """After all the above on one server, it still answers; a final sweep of odd requests never 5xx."""
    odd = [
        ("POST", SWIPES, b"\x00" * 1000, JSON),
        ("POST", SWIPES, b"{" * 5000, JSON),
        ("POST", SWIPES, json.dumps({"card": 1, "direction": "right", "trace": {"t": "x"}}).encode(), JSON),
        ("POST", SWIPES, json.dumps({"card": 1, "direction": "none"}).encode(), JSON),
        ("POST", "/api/v1/decks/getaways/swipes/batch", json.dumps({"swipes": []}).encode(), JSON),
        ("POST", "/api/v1/decks/getaways/swipes/batch", json.dumps({"swipes": [{"card": 1, "direction": "right"}] * 101}).encode(), JSON),
        ("POST", "/api/v1/decks", json.dumps({"slug": "x"}).encode(), {**JSON, "Authorization": "Bearer wrong"}),
        ("GET", "/api/v1/decks/getaways/cards?limit=1000000000000000000000", b"", {}),
        ("GET", "/api/v1/decks/getaways/cards?cursor=-99", b"", {}),
        ("GET", "/api/v1/decks/getaways/cards?participant=%00%ff", b"", {}),
        ("GET", "/api/v1/decks/%ff%fe/results", b"", {}),
        ("GET", "/d/%00/results", b"", {}),
        ("POST", "/api/v1/swipes/x/flip", b'{"direction":"sideways"}', JSON),
    ]
    for method, path, body, headers in odd:
        status, _, raw = raw_request(live.port, method, path, body, headers)
        assert 400 <= status < 500, (method, path, status, raw[:200])
    assert live.request("GET", "/healthz")[0] == 200
    assert live.proc.poll() is None
