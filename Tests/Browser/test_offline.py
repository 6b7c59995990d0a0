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


def test_undo_while_server_down_is_delivered_after_its_swipe(server, desktop):
    """An undo of a delivered swipe made while the server is down waits in the same queue as a DELETE and
    lands when the server is back; the card is back on top at once. An undo of a swipe the server never
    had just drops it from the queue (no row, no request)."""
    page = desktop
    first = open_deck(page, server)
    page.keyboard.press("ArrowRight")
    wait_thrown(page, first)
    poll(lambda: queue(page) == [] and len(swipes(server)) == 1, timeout=10, what="the first swipe delivered")

    server.stop()
    page.keyboard.press("z")
    page.wait_for_function("([sel, id]) => document.querySelector(sel)?.dataset.card === id", arg=[TOP, first])
    q = queue(page)
    assert [i.get("undo") for i in q] == [swipes(server)[0]["id"]], q

    second = first
    page.wait_for_function("sel => !document.querySelector(sel).getAttribute('style')", arg=TOP)  # settled: takes input
    page.keyboard.press("ArrowLeft")  # thrown again (a new swipe), then undone before it was ever sent
    wait_thrown(page, second)
    page.keyboard.press("z")
    page.wait_for_function("([sel, id]) => document.querySelector(sel)?.dataset.card === id", arg=[TOP, first])
    assert len(queue(page)) == 1, "the unsent swipe and its undo cancel out in the queue"

    server.start()
    poll(lambda: queue(page) == [], timeout=20, what="the undo delivered")
    time.sleep(1.0)
    rows = swipes(server)
    assert len(rows) == 1 and rows[0]["undoneAt"] is not None, rows
    assert top_card(page) == first
