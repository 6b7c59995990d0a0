"""Property-based API fuzzing with schemathesis against a running server and its own
`GET /openapi.json`.

Every operation gets at least `SWIPEDECK_FUZZ_EXAMPLES` generated cases (100 by default,
`make fuzz` runs 1,000), positive and negative, plus schemathesis' explicit-example and
coverage phases. Required: no 5xx, and every response conforms to the document (status
code declared, content type, headers, body schema). Invalid input must be refused with a
4xx (`negative_data_rejection`). The two endless event streams (live results, a room's events)
are fuzzed too: schemathesis reads each answer up to its first event (`max_stream_events`) and
checks that event against the document's event schema, its JSON data included (ST108 found the
live results event documented as a plain string).

Two checks are left out on purpose. `unsupported_method` wants 405 + Allow for methods a path
does not declare; the router answers 404 `not_found` for any method/path pair it lacks. `positive_data_acceptance` expects every schema-valid
request to succeed, but a schema cannot express the physics (a schema-valid trace that does
not throw the card is a 422 naming the rule), card membership, or one live swipe per card.
"""
import collections
import json
import os
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from sd_helpers import pid
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    ignored_auth,
    missing_required_header,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

ROOT = Path(__file__).resolve().parents[2]
# Statuses seen per operation, for the coverage test after the fuzz run.
SEEN = collections.defaultdict(collections.Counter)
EXAMPLES = int(os.environ.get("SWIPEDECK_FUZZ_EXAMPLES", "100"))
ADMIN_TOKEN = "test-admin-token"  # the shared fixture starts every server with it

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
    missing_required_header,
    ignored_auth,
]


STREAM = "GET /api/v1/decks/{deck}/results/live"
ROOM_STREAM = "GET /api/v1/rooms/{code}/events"

# Operations that change a deck run against a scratch deck, so random settings (closed, a quota,
# drags only) do not starve the swipe operations of the sample deck of their 2xx answers.
DECK_CHANGES = {"PATCH /api/v1/decks/{deck}", "POST /api/v1/decks/{deck}/cards", "PATCH /api/v1/decks/{deck}/cards/{card}",
                "POST /api/v1/decks/{deck}/cards/{card}/archive", "POST /api/v1/decks/{deck}/cards/{card}/restore",
                "POST /api/v1/decks/{deck}/cards/{card}/move"}


@pytest.fixture()
def fuzz_server(make_server):
    # Rate limits off: fuzzing must not be throttled into 429s.
    server = make_server(extra_args=["--rate-participant", "0", "--rate-ip", "0", "--rate-mint", "0"])
    status, _, body = server.request("POST", "/api/v1/decks", {"slug": "scratch", "title": "Scratch", "cards": [{"title": "a"}]},
                                     {"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert status == 201, body
    # Webhook 1 on the sample deck, so its disable and log operations have one to answer for.
    status, _, body = server.request("POST", "/api/v1/decks/getaways/webhooks",
                                     {"url": "https://93.184.216.34/hooks/swipedeck", "events": ["deck.decided"]},
                                     {"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert status == 201 and body["id"] == 1, body
    # A room on the sample deck with the fuzzer as its member: operations on `{code}` use it.
    status, _, body = server.request("POST", "/api/v1/decks/getaways/rooms", {"name": "Fuzzer"},
                                     {"Cookie": f"sd_pid={pid('fuzzer')}"})
    assert status == 201, body
    server.room = body["code"]
    # A room of its own for the events stream, whose member never leaves it (the fuzzer may leave the first).
    status, _, body = server.request("POST", "/api/v1/decks/getaways/rooms", {"name": "Watcher"},
                                     {"Cookie": f"sd_pid={pid('watcher')}"})
    assert status == 201, body
    server.watched_room = body["code"]
    return server


@pytest.fixture()
def api_schema(fuzz_server, request):
    # schemathesis 4.32's lazy loader renames the test node through `node._nodeid`, which pytest 9
    # no longer has (node ids are computed); giving it one keeps `from_fixture` working.
    if not hasattr(request.node, "_nodeid"):
        request.node._nodeid = request.node.nodeid
    schema = schemathesis.openapi.from_url(fuzz_server.base + "/openapi.json")
    schema.config.update(base_url=fuzz_server.base)
    schema.config.generation.update(max_examples=EXAMPLES)
    # The event streams never end: read up to their first event, which the checks then judge.
    schema.config.max_stream_events = 1
    return schema


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
def test_api_conforms_to_its_openapi_document(case, fuzz_server):
    # The owner's token (results, deck changes) and a signed participant cookie (swipes that name none).
    headers = {"Authorization": f"Bearer {ADMIN_TOKEN}", "Cookie": f"sd_pid={pid('fuzzer')}"}
    if case.operation.label in DECK_CHANGES and (case.path_parameters or {}).get("deck") == "getaways":
        case.path_parameters["deck"] = "scratch"
        if "card" in case.path_parameters:
            case.path_parameters["card"] = 25  # the scratch deck's card (the sample deck has 1…24)
    if "code" in (case.path_parameters or {}):
        case.path_parameters["code"] = fuzz_server.room
    # Generated headers may name the message's framing (`Content-Length: .`): the HTTP parser refuses
    # those with a bare 400 before any route sees them, which is the transport's answer, not the API's
    # (test_hostile covers malformed framing).
    if case.headers:
        case.headers = {k: v for k, v in case.headers.items()
                        if k.lower() not in ("content-length", "transfer-encoding", "host", "connection")}
    if case.operation.label == ROOM_STREAM:
        # The watcher's cookie names the watched room's member; a generated credential never does,
        # and the parameter's refusals are fuzzed on GET /api/v1/rooms/{code}.
        case.path_parameters["code"] = fuzz_server.watched_room
        headers["Cookie"] = f"sd_pid={pid('watcher')}"
        if case.query:
            case.query.pop("participant", None)
    response = case.call_and_validate(base_url=fuzz_server.base, headers=headers, checks=CHECKS, timeout=30)
    SEEN[case.operation.label][response.status_code] += 1


def test_every_operation_was_fuzzed_and_reached_success():
    """Runs after the fuzz test (file order): every documented operation was called, and each got
    at least one 2xx (the document's examples name the sample deck and a valid swipe)."""
    # Alone it has nothing to check, and passing then would hide that; run the file whole.
    assert SEEN, "the fuzz test did not run before this one: run Tests/System/test_schemathesis.py as a whole"
    doc = json.loads((ROOT / "Public" / "openapi.json").read_text())
    # schemathesis does not fuzz the operation that serves the schema it loaded; see the test below.
    labels = {f"{m.upper()} {p}" for p, ops in doc["paths"].items() for m in ops} - {"GET /openapi.json"}
    assert set(SEEN) == labels
    for label, statuses in sorted(SEEN.items()):
        print(f"{label}: {dict(sorted(statuses.items()))}")
    no_success = [label for label, st in SEEN.items() if not any(200 <= s < 300 for s in st)]
    # Undo and flip need an existing swipe id, which a stateless fuzzer cannot know.
    # A second round needs a room that finished without a match.
    assert set(no_success) <= {"DELETE /api/v1/swipes/{id}", "POST /api/v1/swipes/{id}/flip",
                               "POST /api/v1/rooms/{code}/rounds"}, no_success


def test_event_streams_conform_to_their_event_schema(api_schema, fuzz_server):
    """The first event of each stream against the document's event schema, data included: the
    live results event failed ST108 (documented as a string; each event is an object whose data
    is the results JSON)."""
    headers = {"Authorization": f"Bearer {ADMIN_TOKEN}", "Cookie": f"sd_pid={pid('fuzzer')}"}
    for label, parameters in [(STREAM, {"deck": "getaways"}), (ROOM_STREAM, {"code": fuzz_server.watched_room})]:
        headers["Cookie"] = f"sd_pid={pid('watcher' if label == ROOM_STREAM else 'fuzzer')}"
        method, path = label.split(" ", 1)
        case = api_schema[path][method].Case(path_parameters=parameters)
        response = case.call(base_url=fuzz_server.base, headers=headers, timeout=30)
        assert response.status_code == 200, (label, response.status_code)
        assert b"event: " in response.content and b"data: {" in response.content, response.content[:200]
        case.validate_response(response, checks=[response_schema_conformance, content_type_conformance],
                               headers=headers)


def test_openapi_document_is_served(fuzz_server):
    import urllib.request

    with urllib.request.urlopen(fuzz_server.base + "/openapi.json", timeout=10) as r:
        assert r.status == 200
        assert r.headers["Content-Type"].startswith("application/json")
        served = json.loads(r.read())
    assert served == json.loads((ROOT / "Public" / "openapi.json").read_text())
    assert served["openapi"].startswith("3.1")
    admin = served["components"]["securitySchemes"]["adminToken"]
    assert {k: admin[k] for k in ("type", "scheme")} == {"type": "http", "scheme": "bearer"}
    assert set(admin) == {"type", "scheme", "description"}
    assert "admin token" in admin["description"] and "sdt_" in admin["description"], admin["description"]
