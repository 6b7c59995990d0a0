"""The swipe route parses plain bodies with a fast single-pass parser (SwipeBodyParser) and
falls back to JSONDecoder for anything else. An unknown key always forces the fallback (the
fast parser gives up on it; JSONDecoder ignores it), so sending each generated body twice —
as is, and with `"zz": 0` added — compares the two paths: same status, same error code, and
for a stored swipe the same stored values.
"""
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sd_helpers import card_ids, drag_trace, error_code, pid, raw_request

SWIPES = "/api/v1/decks/getaways/swipes"


@pytest.fixture()
def env(make_server):
    # Hypothesis runs every example inside one call of the test, so this is one server for all.
    server = make_server(extra_args=["--rate-participant", "0", "--rate-ip", "0"])
    return server, card_ids(server)


def number_spellings(v):
    """Ways to write a number in JSON, all meaning the same double."""
    out = [json.dumps(v)]
    if float(v).is_integer():
        out.append(str(int(v)) + ".0")
        out.append(str(int(v)))
    out.append(repr(float(v)).replace("e+", "E+"))
    out.append("%.17g" % v)
    out.append("%.3e" % v)
    return out


@st.composite
def bodies(draw):
    rng = random.Random(draw(st.integers(0, 2**32)))
    direction = draw(st.sampled_from(["left", "right", "up", "none", "sideways"]))
    trace = drag_trace("right" if direction != "left" else "left", rng, samples=draw(st.integers(2, 40)))
    mutation = draw(st.sampled_from(["none", "spell", "big", "tiny", "negzero", "drop", "null_opt", "string_num", "exp", "ws"]))
    parts = {"card": None, "direction": json.dumps(direction), "input": json.dumps(draw(st.sampled_from(["drag", "api", "button"]))),
             "decisionMs": json.dumps(draw(st.floats(-10, 1e8, allow_nan=False))), "trace": None}
    arrays = {k: [json.dumps(v) for v in trace[k]] for k in "txy"}
    scalars = {k: json.dumps(trace[k]) for k in ["w", "h", "vw", "vh", "gx", "gy"]}
    if mutation == "spell":
        for k in arrays:
            arrays[k] = [rng.choice(number_spellings(float(v))) for v in arrays[k]]
        scalars = {k: rng.choice(number_spellings(float(v))) for k, v in scalars.items()}
    elif mutation == "big":
        arrays["x"][-1] = "1" + "0" * rng.randint(16, 400)
    elif mutation == "tiny":
        arrays["y"][0] = "0." + "0" * rng.randint(10, 400) + "1"
    elif mutation == "negzero":
        arrays["x"][0] = "-0"
        scalars["gx"] = "-0.0"
    elif mutation == "drop":
        k = rng.choice(["w", "h", "gy"])
        del scalars[k]
    elif mutation == "null_opt":
        parts["input"] = "null"
        parts["decisionMs"] = "null"
    elif mutation == "string_num":
        arrays["t"][1] = '"NaN"'
    elif mutation == "exp":
        scalars["w"] = rng.choice(["3.2e2", "3.2E+2", "320e0", "32000e-2", "1e999", "-1e999"])
    trace_json = "{" + ",".join(
        [f'"{k}":[' + ",".join(arrays[k]) + "]" for k in "txy"] + [f'"{k}":{v}' for k, v in scalars.items()]) + "}"
    parts["trace"] = trace_json
    card_kind = draw(st.sampled_from(["ok", "ok", "ok", "float", "huge", "neg", "unknown"]))
    sep = " \n " if mutation == "ws" else ""
    return card_kind, parts, sep


def render(parts, card, participant, extra, sep):
    items = [f'"card":{sep}{card}', f'"participant":"{participant}"'] + [f'"{k}":{sep}{v}' for k, v in parts.items() if k != "card"]
    if extra:
        items.append('"zz":0')
    return ("{" + sep + ("," + sep).join(items) + sep + "}").encode()


def stored(server, key):
    """The stored row of `key` on either engine (`Server.sql`: strings, blobs as \\x<hex>), trace decoded."""
    assert key.replace("-", "").isalnum()
    rows = server.sql("SELECT direction, input, velocityX, velocityY, durationMs, decisionMs, suspect, trace, traceData "
                      f"FROM swipes WHERE id = '{key}'")
    if not rows:
        return None
    row = rows[0]
    from trace_codec import decode
    trace = json.loads(row[7]) if row[7] else decode(bytes.fromhex(row[8][2:])) if row[8] is not None else None
    return row[:7] + (trace,)


COUNTER = iter(range(10**9))


@settings(max_examples=int(__import__("os").environ.get("SWIPEDECK_PARSER_EXAMPLES", "300")), deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(body=bodies())
def test_fast_parser_agrees_with_jsondecoder(env, body):
    server, cards = env
    card_kind, parts, sep = body
    n = next(COUNTER)
    card = {"ok": str(cards[n % len(cards)]), "float": f"{cards[0]}.0", "huge": "99999999999999999999",
            "neg": "-3", "unknown": "987654"}[card_kind]
    answers = []
    for extra in (False, True):
        key = f"k{n}-{int(extra)}"
        body_bytes = render(parts, card, pid(f"pp{n}-{int(extra)}"), extra, sep)
        status, _, raw = raw_request(server.port, "POST", SWIPES, body_bytes,
                                     {"Content-Type": "application/json", "Idempotency-Key": key})
        assert status < 500, raw[:300]
        answers.append((status, error_code(raw), stored(server, key)))
        last = (body_bytes[:400], raw[:300])
    assert answers[0] == answers[1], last
