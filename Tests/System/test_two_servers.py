"""Two `swipedeck serve` processes on one PostgreSQL database (issue 15).

Each swipe goes to one of the two servers; a second set of keys is raced to both at the same
moment. The rows must hold each key once, both servers must answer the same results, and the
live results stream of one server must follow the swipes the other one took (LISTEN/NOTIFY).
"""
import http.client
import json
import random
import threading
import time

import pytest

ADMIN_TOKEN = "test-admin-token"  # the shared fixture starts every server with it
from sd_helpers import card_ids, raw_request, swipe_body

SWIPES = "/api/v1/decks/getaways/swipes"
AUTH = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def post(server, body, key):
    status, headers, raw = raw_request(server.port, "POST", SWIPES, json.dumps(body).encode(),
                                       {"Content-Type": "application/json", "Idempotency-Key": key})
    return status, headers.get("idempotent-replayed") == "true", raw


class LiveWatcher(threading.Thread):
    """Reads the results stream of one server, keeping the last `allSwipes` it announced."""

    def __init__(self, server):
        super().__init__(daemon=True)
        self.server, self.last, self.events = server, None, 0
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)

    def run(self):
        self.conn.request("GET", "/api/v1/decks/getaways/results/live", headers=AUTH)
        response = self.conn.getresponse()
        self.status = response.status
        try:
            while True:
                line = response.fp.readline()
                if not line:
                    return
                if line.startswith(b"data: "):
                    data = json.loads(line[6:])
                    self.last = data["allSwipes"] + data["excludedSwipes"]
                    self.events += 1
        except (OSError, ValueError, AttributeError):
            return  # the test closed the connection


def test_two_servers_share_one_database(make_server, db_engine):
    if db_engine != "postgres":
        pytest.skip("several servers share PostgreSQL; an SQLite file is served by one process")
    first = make_server(db_name="shared")
    second = make_server(db_name="shared")
    cards = card_ids(first)
    watcher = LiveWatcher(second)
    watcher.start()
    rng = random.Random(15)

    # 240 swipes, each to one server chosen at random: 10 participants x 24 cards.
    spread = []
    for i in range(240):
        body = swipe_body(cards[i % len(cards)], f"two-{i // len(cards)}", rng.choice(["left", "right"]), rng)
        target = rng.choice([first, second])
        status, replayed, raw = post(target, body, f"spread-{i}")
        assert status == 201 and not replayed, raw[:300]
        spread.append(f"spread-{i}")

    # 48 keys raced: the same body and key to both servers, released together.
    raced = {}
    for i in range(48):
        body = swipe_body(cards[i % len(cards)], f"race-{i // len(cards)}", "right", rng)
        barrier = threading.Barrier(2)
        answers = []

        def send(server, key=f"race-{i}", body=body, barrier=barrier, answers=answers):
            barrier.wait()
            answers.append(post(server, body, key))

        threads = [threading.Thread(target=send, args=(s,)) for s in (first, second)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        raced[f"race-{i}"] = answers
    for key, answers in raced.items():
        assert sorted(status for status, _, _ in answers) == [201, 201], (key, answers)
        assert sorted(replayed for _, replayed, _ in answers) == [False, True], (key, answers)
        ids = {json.loads(raw)["swipe"]["id"] for _, _, raw in answers}
        assert ids == {key}

    # The rows: every key once, nothing else.
    assert first.sql("SELECT COUNT(*), COUNT(DISTINCT id) FROM swipes") == [("288", "288")]
    assert first.sql("SELECT COUNT(*) FROM swipes WHERE id LIKE 'race-%'") == [("48",)]
    # One live swipe per participant and card, enforced by the database.
    assert first.sql("SELECT COUNT(*) FROM (SELECT participantId, cardId FROM swipes WHERE undoneAt IS NULL "
                     "GROUP BY participantId, cardId HAVING COUNT(*) > 1) AS twice") == [("0",)]

    # Both servers answer the same results.
    results = []
    for server in (first, second):
        status, _, body = server.request("GET", "/api/v1/decks/getaways/results", headers=AUTH)
        assert status == 200, body
        results.append(body)
    assert results[0] == results[1]
    # Counted or left out: ten scripted participants swiping from one address as fast as they are
    # answered are "machine pace" to the lockstep rule, which leaves them out. Both servers hold all 288.
    assert results[0]["allSwipes"] + results[0]["excludedSwipes"] == 288

    # The second server's live stream saw the swipes the first server took.
    deadline = time.time() + 10
    while watcher.last != 288 and time.time() < deadline:
        time.sleep(0.1)
    assert watcher.status == 200
    assert watcher.last == 288, f"live stream of the second server stopped at {watcher.last} after {watcher.events} events"
    watcher.conn.close()



def patch_deck(server, fields):
    status, _, body = server.request("PATCH", "/api/v1/decks/getaways", body=fields, headers=AUTH)
    assert status == 200, body


def test_an_edit_through_one_server_binds_the_other_within_a_second(make_server, db_engine):
    """Close on A, a swipe on B gets 409; reopen, 201; the same for a quota and an archived card.

    Each swipe on B is sent 0.25 s after A answered (the issue asks for 1 s): B had the deck in
    memory from a swipe just before, so only the commit's notification can tell it."""
    if db_engine != "postgres":
        pytest.skip("several servers share PostgreSQL; an SQLite file is served by one process")
    a = make_server(db_name="edits")
    b = make_server(db_name="edits")
    cards = card_ids(a)
    rng = random.Random(25)
    n = iter(range(1000))

    def swipe_b(card, who):
        status, _, raw = post(b, swipe_body(card, who, "right", rng), f"edit-{next(n)}")
        return status, raw

    def after_edit(card, who):
        time.sleep(0.25)
        return swipe_b(card, who)

    assert swipe_b(cards[0], "warm")[0] == 201  # B now holds the deck in memory
    patch_deck(a, {"open": False})
    status, raw = after_edit(cards[1], "warm")
    assert status == 409 and b'"deck_closed"' in raw, raw[:300]
    patch_deck(a, {"open": True})
    assert after_edit(cards[1], "warm")[0] == 201

    patch_deck(a, {"quota": 2})
    status, raw = after_edit(cards[2], "warm")
    assert status == 409 and b'"quota_reached"' in raw, raw[:300]
    patch_deck(a, {"quota": None})
    assert after_edit(cards[2], "warm")[0] == 201

    status, _, body = a.request("POST", f"/api/v1/decks/getaways/cards/{cards[3]}/archive", body={}, headers=AUTH)
    assert status == 200, body
    status, raw = after_edit(cards[3], "warm")
    assert status == 409 and b'"card_archived"' in raw, raw[:300]
    status, _, body = a.request("POST", f"/api/v1/decks/getaways/cards/{cards[3]}/restore", body={}, headers=AUTH)
    assert status == 200, body
    assert after_edit(cards[3], "warm")[0] == 201


def test_the_join_budget_is_one_for_both_servers(make_server, db_engine):
    """A network that spent its joins on A gets none on B (the budget guards the results)."""
    if db_engine != "postgres":
        pytest.skip("several servers share PostgreSQL; an SQLite file is served by one process")
    # 0.05 joins a second: 3 at once.
    a = make_server(db_name="joins", extra_args=["--rate-mint", "0.05"])
    b = make_server(db_name="joins", extra_args=["--rate-mint", "0.05"])
    path = "/api/v1/decks/getaways/participants"
    statuses = [server.request("POST", path)[0] for server in (a, b, a, b)]
    assert statuses == [201, 201, 201, 429], statuses
    status, headers, body = b.request("POST", path)
    assert status == 429 and body["error"]["code"] == "rate_limited", body
    assert int(headers["Retry-After"]) >= 1


def test_a_solved_join_puzzle_pays_once_across_servers(make_server, db_engine):
    """A puzzle issued by A is redeemed on B (one secret, one network), and never again on either: the
    replay guard is one table; the same solution raced to both at once earns one credential."""
    if db_engine != "postgres":
        pytest.skip("several servers share PostgreSQL; an SQLite file is served by one process")
    from join_puzzle import solution
    a = make_server(db_name="puzzles", extra_args=["--rate-mint", "0.05"])
    b = make_server(db_name="puzzles", extra_args=["--rate-mint", "0.05"])
    mint = "/api/v1/decks/getaways/participants"
    status, _, puzzle = a.request("POST", "/api/v1/decks/getaways/puzzles")
    assert status == 201, puzzle
    solved = solution(puzzle)
    status, _, body = b.request("POST", mint, body={"puzzle": solved})
    assert status == 201 and body["participant"], body
    for server in (a, b):
        status, _, body = server.request("POST", mint, body={"puzzle": solved})
        assert status == 409 and body["error"]["code"] == "puzzle_used", body
    for _ in range(5):
        status, _, puzzle = b.request("POST", "/api/v1/decks/getaways/puzzles")
        solved = solution(puzzle)
        answers = []
        racers = [threading.Thread(target=lambda s=s: answers.append(s.request("POST", mint, body={"puzzle": solved})[0]))
                  for s in (a, b)]
        for t in racers:
            t.start()
        for t in racers:
            t.join(30)
        assert sorted(answers) == [201, 409], answers
