"""Offline: swipes made while the server is down wait in localStorage and are delivered, once each,
when it comes back on the same port and database."""
import random
import time

from deckkit import TOP, Mouse, open_deck, poll, queue, swipes, top_box, top_card, wait_thrown


def test_swipes_while_server_down_are_delivered_once(server, desktop):
    page = desktop
    open_deck(page, server)
    server.stop()

    thrown = []
    # A drag, a button and a key: every path goes through the same queue.
    top = top_card(page)
    box = top_box(page)
    Mouse(page).drag(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.45, box["width"] * 0.55, -12,
                     duration_ms=380, moves=24, rng=random.Random(21))
    wait_thrown(page, top)
    thrown.append(top)
    top = top_card(page)
    page.click(".ctl-nope")
    wait_thrown(page, top)
    thrown.append(top)
    top = top_card(page)
    page.keyboard.press("ArrowRight")
    wait_thrown(page, top)
    thrown.append(top)

    q = queue(page)
    assert [str(i["body"]["card"]) for i in q] == thrown, "the page keeps undelivered swipes in localStorage"
    assert len({i["key"] for i in q}) == 3
    time.sleep(1.5)  # let at least one retry fail against the closed port
    assert swipes(server) == []

    server.start()
    rows = poll(lambda: (lambda r: r if len(r) >= 3 else None)(swipes(server)), timeout=20, what="3 delivered swipes")
    poll(lambda: queue(page) == [], timeout=10, what="an empty delivery queue")
    time.sleep(1.0)  # any duplicate retry would land now
    rows = swipes(server)
    assert len(rows) == 3, rows
    assert sorted(str(r["cardId"]) for r in rows) == sorted(thrown)
    assert len({r["cardId"] for r in rows}) == 3
    assert {r["id"] for r in rows} == {i["key"] for i in q}, "rows carry the queued Idempotency-Keys"
    assert [(r["direction"], r["input"]) for r in sorted(rows, key=lambda r: thrown.index(str(r["cardId"])))] == [
        ("right", "drag"), ("left", "button"), ("right", "key")]
    assert page.locator(TOP).count() == 1
