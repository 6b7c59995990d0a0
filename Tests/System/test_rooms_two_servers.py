"""Match rooms across two `swipedeck serve` processes on one PostgreSQL database (issue 28).

Ana is on the first server, Ben on the second; each follows the room's events stream on their
own server. When both have liked the same card, each stream shows the match (the room's event
log is read from the database, so a server sees what the other one stored), within a couple of
seconds; the room survives a restart of both servers.
"""
import http.client
import json
import threading
import time

import pytest

from sd_helpers import card_ids, pid


class RoomWatcher(threading.Thread):
    """Reads a room's events stream, keeping each event (name, data) with when it arrived."""

    def __init__(self, server, code, participant):
        super().__init__(daemon=True)
        self.server, self.code, self.participant = server, code, participant
        self.events, self.status = [], None
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)

    def run(self):
        self.conn.request("GET", f"/api/v1/rooms/{self.code}/events?participant={pid(self.participant)}")
        response = self.conn.getresponse()
        self.status = response.status
        name = None
        try:
            while True:
                line = response.fp.readline()
                if not line:
                    return
                if line.startswith(b"event: "):
                    name = line[7:].strip().decode()
                elif line.startswith(b"data: "):
                    self.events.append((name, json.loads(line[6:]), time.monotonic()))
        except (OSError, ValueError, AttributeError):
            return  # the test closed the connection

    def first(self, name, timeout=5.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for event in self.events:
                if event[0] == name:
                    return event
            time.sleep(0.02)
        return None


def room_swipe(server, card, participant, code, direction="right"):
    body = {"card": card, "direction": direction, "input": "api", "participant": pid(participant), "room": code}
    return server.request("POST", "/api/v1/decks/getaways/swipes", body)


def test_members_on_two_servers_see_the_same_match(make_server, db_engine):
    if db_engine != "postgres":
        pytest.skip("several servers share PostgreSQL; an SQLite file is served by one process")
    first = make_server(db_name="shared")
    second = make_server(db_name="shared")
    cards = card_ids(first)
    status, headers, room = first.request("POST", f"/api/v1/decks/getaways/rooms?participant={pid('ana')}",
                                          {"name": "Ana"})
    assert status == 201, room
    code = room["code"]
    assert headers["Location"] == f"/r/{code}"
    status, _, joined = second.request("POST", f"/api/v1/rooms/{code.lower()}/members?participant={pid('ben')}",
                                       {"name": "Ben"})
    assert status == 201, joined
    assert [m["name"] for m in joined["members"]] == ["Ana", "Ben"]

    ana, ben = RoomWatcher(first, code, "ana"), RoomWatcher(second, code, "ben")
    ana.start()
    ben.start()
    assert ana.first("state") and ben.first("state"), "both streams start with the room's state"

    # Ana passes on one card (nobody may learn it) and likes another on her server.
    assert room_swipe(first, cards[0], "ana", code, "left")[0] == 201
    assert room_swipe(first, cards[1], "ana", code)[0] == 201
    progress = ben.first("progress")
    assert progress and progress[1]["decided"] >= 1, "Ben's server shows Ana's progress"
    # Ben likes the same card on his server: the match reaches both streams.
    sent = time.monotonic()
    assert room_swipe(second, cards[1], "ben", code)[0] == 201
    for watcher in (ana, ben):
        match = watcher.first("match")
        assert match, f"no match on {watcher.participant}'s stream: {watcher.events}"
        assert match[1]["match"]["card"]["id"] == cards[1]
        assert len(match[1]["match"]["likedBy"]) == 2
        assert match[2] - sent < 2.0, f"the match came {match[2] - sent:.2f} s after the second like"
    everything = json.dumps([e[1] for e in ana.events + ben.events])
    assert "left" not in everything.replace('"change": "left"', ""), "a pass was shown"
    assert pid("ana") not in everything and pid("ben") not in everything
    for watcher in (ana, ben):
        watcher.conn.close()

    # Both servers restart: the room and its match are still there.
    first.stop()
    second.stop()
    first.start()
    status, _, state = first.request("GET", f"/api/v1/rooms/{code}?participant={pid('ben')}")
    assert status == 200, state
    assert [m["card"]["id"] for m in state["matches"]] == [cards[1]]
    assert state["members"][0]["decided"] == 2 and state["members"][1]["decided"] == 1
