"""Edge cases a review of deck.js found, each reproduced in Chromium before it was fixed: a lost answer
then an undo, card requests while offline, mouse presses that never became drags."""
import time

from deckkit import TOP, Mouse, open_deck, poll, queue, swipes, top_box, top_card, wait_thrown


def test_undo_after_a_lost_answer_asks_the_server(server, desktop):
    """The POST reached the server but its answer was lost: the swipe is stored. An undo then must not just
    drop the queued item (the row would stay live); it queues a DELETE, and both land once the network is back."""
    page = desktop
    first = open_deck(page, server)
    lost = []

    def lose_answer(route):
        if not lost:
            route.fetch()  # the server stores the swipe...
            lost.append(1)
        route.abort()  # ...and the page never hears back (nor on its retries, for now)

    page.route("**/api/v1/decks/getaways/swipes", lose_answer)
    page.keyboard.press("ArrowRight")
    wait_thrown(page, first)
    poll(lambda: lost and len(swipes(server)) == 1, what="the swipe stored, its answer lost")
    page.keyboard.press("z")
    page.wait_for_function("([sel, id]) => document.querySelector(sel)?.dataset.card === id", arg=[TOP, first])
    assert [bool(i.get("undo")) for i in queue(page)] == [False, True], queue(page)

    page.unroute("**/api/v1/decks/getaways/swipes")
    poll(lambda: queue(page) == [], timeout=20, what="the POST replayed and the DELETE delivered")
    rows = swipes(server)
    assert len(rows) == 1 and rows[0]["undoneAt"] is not None, rows


def test_no_request_storm_for_cards_while_offline(server, desktop):
    """Near the end of the rendered cards the page asks for more; offline, it waits instead of asking again at once."""
    page = desktop
    open_deck(page, server)
    asked = []
    page.route("**/api/v1/decks/getaways/cards*", lambda route: (asked.append(1), route.abort()))
    for _ in range(3):
        top = top_card(page)
        page.keyboard.press("ArrowLeft")
        wait_thrown(page, top)
    time.sleep(1.5)
    assert 1 <= len(asked) <= 3, f"{len(asked)} card requests in about 2 s while offline"


def test_a_press_that_starts_as_a_scroll_does_not_open_the_card(server, desktop):
    """A mouse press that moves vertically first is not a drag (it is the page's scroll); carried on sideways
    and released on the card, its click must not open the detail view either."""
    page = desktop
    first = open_deck(page, server)
    box = top_box(page)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.4
    m = Mouse(page)
    m.press(x, y)
    m.move(x, y + 14, 0.05)
    m.move(x + 60, y + 20, 0.10)
    m.move(x + 90, y + 20, 0.15)
    m.up()
    time.sleep(0.8)
    assert page.url.endswith("/d/getaways"), page.url
    assert top_card(page) == first and swipes(server) == []


def test_a_press_released_off_the_stack_leaves_no_half_drag(server, desktop):
    """Pressed on the card's edge and released just outside the stack (within the dead zone): hovering over the
    card afterwards, with no button held, must not move it, and a later click must not throw it."""
    page = desktop
    first = open_deck(page, server)
    box = top_box(page)
    x, y = box["x"] + box["width"] - 2, box["y"] + box["height"] / 2
    m = Mouse(page)
    m.press(x, y)
    m.move(x + 4, y, 0.05)
    m.up()
    # Hover across the card with no button held.
    for i in range(1, 10):
        page.mouse.move(x - 30 * i, y)
    time.sleep(0.3)
    assert page.eval_on_selector(TOP, "e => e.style.transform") == "", "the card follows a hovering mouse"
    assert swipes(server) == [] and top_card(page) == first
