"""Offline: swipes made while the server is down wait in localStorage and are delivered, once each,
when it comes back on the same port and database."""
import time

from deckkit import TOP, open_deck, poll, queue, swipes, top_card, wait_thrown


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
