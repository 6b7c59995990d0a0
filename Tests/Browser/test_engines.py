"""The core browser suite in three engines: every test runs in Chromium (Playwright), WebKit (WebKitGTK
through WebKitWebDriver) and Firefox ESR (WebDriver BiDi), through the engine-neutral page of
engines/base.py. The Chromium-only suites beside this file test more; these are the paths every
engine a phone or laptop runs must get right: drags stored with the server's decision, a slow drag
that springs back, a flick, touch swipes on a phone-sized page, buttons, keys and undo, the offline
queue delivered exactly once, the forms without JavaScript, and a fresh visitor past the free join
budget solving the join puzzle (WebCrypto) before the swipe is delivered.

Touch: Chromium (CDP touch events) and Firefox (BiDi pointerType "touch") swipe with a finger, steep
swipes included. WebKitGTK's WebDriver has no touch input (a "touch" action arrives as pointerType
"mouse"), so the touch tests skip there, saying so; the phone-sized mouse swipe runs in every engine
instead. Firefox's automated touches never pan a page, so the page-scrolling touch test runs in
Chromium only."""
import json
import random
import time

import pytest

from deckkit import DESKTOP, TOP, assert_no_swipes, poll, spend_join_budget, swipes, wait_swipes
from engines import drag_points
from enginekit import (card_centre_of, open_deck, queue, record_pointer_types, top_card, wait_queue_empty,
                       wait_settled, wait_thrown, wait_top_is)


@pytest.mark.parametrize("direction", ["right", "left"])
def test_mouse_drag_is_stored_with_the_servers_decision(server, desktop_page, direction):
    page = desktop_page
    first = open_deck(page, server)
    box, x0, y0 = card_centre_of(page)
    sign = 1 if direction == "right" else -1
    # Past distanceThreshold (0.35 of the width) to 0.55, with a human-ish profile.
    page.gesture("mouse", x0, y0, drag_points(x0, y0, sign * box["width"] * 0.55, 18, 420, 26, rng=random.Random(7)))
    assert wait_thrown(page, first) != first
    (row,) = wait_swipes(server, 1)
    # The server re-ran the decision on the trace the engine recorded and stored it (a mismatch is a 422).
    assert (row["cardId"], row["direction"], row["input"], row["undoneAt"]) == (int(first), direction, "drag", None)
    trace = json.loads(row["trace"])
    assert len(trace["t"]) >= 5 and (trace["x"][-1] > 0) == (direction == "right")
    assert all(b > a for a, b in zip(trace["t"], trace["t"][1:])), f"{page.engine}: event times must increase"
    assert page.text("#remaining") == "23"


def test_slow_short_drag_springs_back_and_stores_nothing(server, desktop_page):
    page = desktop_page
    first = open_deck(page, server)
    box, x0, y0 = card_centre_of(page)
    # 0.15 of the width at ~0.1 px/ms (under flingVelocity 0.5 px/ms), then a still hold before the release.
    page.gesture("mouse", x0, y0, drag_points(x0, y0, box["width"] * 0.15, 4, 650, 32, hold_ms=150,
                                              rng=random.Random(3)), release=False)
    moved = page.evaluate("(sel) => document.querySelector(sel).style.transform", TOP)
    assert "translate(" in moved, f"{page.engine}: the card must follow the pointer, transform={moved!r}"
    page.pointer_up("mouse")
    wait_settled(page)
    assert top_card(page) == first
    assert_no_swipes(server, settle=1.0)
    assert page.text("#remaining") == "24"


def test_short_fast_flick_counts(server, desktop_page):
    page = desktop_page
    first = open_deck(page, server)
    box, x0, y0 = card_centre_of(page)
    # Well under the distance threshold (0.35 of the width), over minFlingDistance (0.08), fast: 4 moves in
    # 40 ms (Firefox performs each action tick in about 20 ms, so it arrives at about 1 px/ms; 0.5 counts).
    dx = box["width"] * 0.25
    page.gesture("mouse", x0, y0, drag_points(x0, y0, dx, 0, 40, 4, ease=False, rng=random.Random(11)))
    wait_thrown(page, first)
    (row,) = wait_swipes(server, 1)
    assert (row["cardId"], row["direction"], row["input"]) == (int(first), "right", "drag")
    assert max(json.loads(row["trace"])["x"]) < box["width"] * 0.35, "accepted by speed, not by distance"


@pytest.mark.parametrize("direction", ["left", "right"])
def test_touch_swipe_on_a_phone(server, phone_page, direction):
    page = phone_page
    if not page.supports_touch:
        pytest.skip(f"{page.engine}: its WebDriver has no touch input (the phone-sized mouse swipe runs instead)")
    first = open_deck(page, server)
    record_pointer_types(page)
    box, x0, y0 = card_centre_of(page)
    sign = 1 if direction == "right" else -1
    page.gesture("touch", x0, y0, drag_points(x0, y0, sign * box["width"] * 0.5, 10, 320, 20, ease=False,
                                              rng=random.Random(5)))
    assert wait_thrown(page, first) != first
    assert page.evaluate("() => window.pointerTypes") == ["touch"]
    (row,) = wait_swipes(server, 1)
    assert (row["cardId"], row["direction"], row["input"]) == (int(first), direction, "drag")
    trace = json.loads(row["trace"])
    assert trace["vw"] == page.evaluate("() => innerWidth") <= 450 and len(trace["t"]) >= 5


def test_mouse_swipe_on_a_phone_sized_page(server, phone_page):
    page = phone_page
    first = open_deck(page, server)
    assert page.evaluate("() => innerWidth") <= 450
    box, x0, y0 = card_centre_of(page)
    page.gesture("mouse", x0, y0, drag_points(x0, y0, -box["width"] * 0.5, 6, 380, 22, rng=random.Random(8)))
    wait_thrown(page, first)
    (row,) = wait_swipes(server, 1)
    assert (row["cardId"], row["direction"], row["input"]) == (int(first), "left", "drag")


def test_buttons_keys_and_undo(server, desktop_page):
    page = desktop_page
    done = []

    def act(do, direction, input_):
        top = top_card(page)
        do()
        wait_thrown(page, top)
        done.append((int(top), direction, input_))
        rows = wait_swipes(server, len(done))
        assert [(r["cardId"], r["direction"], r["input"]) for r in rows] == done

    open_deck(page, server)
    act(lambda: page.click(".ctl-like"), "right", "button")
    act(lambda: page.click(".ctl-nope"), "left", "button")
    act(lambda: page.press("ArrowLeft"), "left", "key")
    act(lambda: page.press("ArrowRight"), "right", "key")
    assert page.text("#remaining") == "20"

    wait_queue_empty(page)
    last = str(done[-1][0])
    page.press("z")
    wait_top_is(page, last)
    wait_settled(page)
    undone = poll(lambda: [r for r in swipes(server) if r["undoneAt"] is not None], what="undoneAt on the undone row")
    assert [(r["cardId"], r["direction"]) for r in undone] == [(int(last), "right")]
    assert page.text("#remaining") == "21"
    # The undo button undoes the one before.
    page.click(".ctl-undo")
    wait_top_is(page, str(done[-2][0]))
    poll(lambda: sum(r["undoneAt"] is not None for r in swipes(server)) == 2, what="two undone rows")
    assert len(swipes(server)) == 4


def test_offline_swipes_are_delivered_once_when_the_server_is_back(server, desktop_page):
    page = desktop_page
    open_deck(page, server)
    server.stop()
    thrown = []
    top = top_card(page)
    box, x0, y0 = card_centre_of(page)
    page.gesture("mouse", x0, y0, drag_points(x0, y0, box["width"] * 0.55, -12, 380, 24, rng=random.Random(21)))
    wait_thrown(page, top)
    thrown.append(top)
    top = top_card(page)
    page.click(".ctl-nope")
    wait_thrown(page, top)
    thrown.append(top)
    top = top_card(page)
    page.press("ArrowRight")
    wait_thrown(page, top)
    thrown.append(top)

    q = queue(page)
    assert [str(i["body"]["card"]) for i in q] == thrown, "undelivered swipes wait in localStorage"
    assert len({i["key"] for i in q}) == 3
    time.sleep(1.5)  # at least one retry fails against the closed port
    assert swipes(server) == []

    server.start()
    poll(lambda: len(swipes(server)) >= 3, timeout=20, what="3 delivered swipes")
    wait_queue_empty(page)
    time.sleep(1.0)  # a duplicate retry would land now
    rows = swipes(server)
    assert len(rows) == 3 and sorted(str(r["cardId"]) for r in rows) == sorted(thrown), rows
    assert {r["id"] for r in rows} == {i["key"] for i in q}, "rows carry the queued Idempotency-Keys"
    by_card = {str(r["cardId"]): (r["direction"], r["input"]) for r in rows}
    assert [by_card[c] for c in thrown] == [("right", "drag"), ("left", "button"), ("right", "key")]


def test_forms_work_without_javascript(server, engine):
    page = engine.new_page(viewport=DESKTOP, javascript=False)
    try:
        page.goto(server.base + "/d/getaways")
        assert page.attr("html", "class") == "no-js"
        first = page.attr(TOP, "data-card")
        assert page.attr("form.controls input[name=card]", "value") == first

        def submit(selector, before):
            page.click(selector)
            return poll(lambda: (lambda c: c if c and c != before else None)(page.attr(TOP, "data-card")),
                        timeout=10, what=f"the page after {selector}")

        second = submit(".ctl-like", first)
        (row,) = wait_swipes(server, 1)
        assert (str(row["cardId"]), row["direction"], row["input"]) == (first, "right", "button")
        assert page.text("#remaining") == "23"
        third = submit(".ctl-nope", second)
        assert third not in (first, second)
        rows = wait_swipes(server, 2)
        assert [(str(r["cardId"]), r["direction"]) for r in rows] == [(first, "right"), (second, "left")]
        assert submit(".ctl-undo", third) == second
        rows = wait_swipes(server, 2)
        assert rows[1]["undoneAt"] is not None and rows[0]["undoneAt"] is None
    finally:
        page.close()


def touch_only(page):
    if not page.supports_touch:
        pytest.skip(f"{page.engine}: its WebDriver has no touch input")


def test_steep_touch_swipe_throws_the_card(server, phone_page):
    """60° from horizontal on a page that cannot scroll: the card follows the finger (touch-action and
    pointer capture let the page have the gesture) and is thrown."""
    page = phone_page
    touch_only(page)
    first = open_deck(page, server)
    assert page.evaluate("() => document.scrollingElement.scrollHeight <= innerHeight"), "this page must not scroll"
    box = page.box(TOP)
    x0, y0 = box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.75
    dx = box["width"] * 0.5
    page.gesture("touch", x0, y0, drag_points(x0, y0, dx, -dx * 3 ** 0.5, 320, 20, ease=False, rng=random.Random(3)))
    assert wait_thrown(page, first) != first
    (row,) = wait_swipes(server, 1)
    assert (row["cardId"], row["direction"], row["input"]) == (int(first), "right", "drag")


def test_vertical_touch_outside_the_card_scrolls_the_page(server, phone_page):
    page = phone_page
    touch_only(page)
    if not page.touch_scrolls:
        pytest.skip(f"{page.engine}: its automation's touch never pans a page (a plain long page does not scroll)")
    first = open_deck(page, server)
    page.evaluate("() => { document.body.style.minHeight = '3000px'; scrollTo(0, 0); }")
    page.evaluate("""(sel) => { const e = document.querySelector(sel); window.moves = [];
        new MutationObserver(() => e.style.transform && moves.push(e.style.transform))
            .observe(e, {attributes: true, attributeFilter: ['style', 'class']}); }""", TOP)
    below = page.evaluate("() => document.querySelector('.controls').getBoundingClientRect().bottom")
    x0, y0 = 12, below + 40
    page.gesture("touch", x0, y0, drag_points(x0, y0, 4, -320, 260, 16, ease=False, rng=random.Random(4)))
    page.wait_for("() => scrollY > 100", what="the page scrolled by the finger")
    assert page.evaluate("() => window.moves") == [], "the card must not move when the page scrolls"
    assert_no_swipes(server, settle=1.0)
    assert top_card(page) == first


def test_past_the_free_budget_the_page_solves_the_join_puzzle_and_swipes(make_server, desktop_page):
    """The page comes with a puzzle; the engine solves it with WebCrypto while the card is read; the swipe
    made meanwhile is delivered once the deck's cookie arrived, and counts."""
    server = make_server(extra_args=["--rate-mint", "0.05"])
    spend_join_budget(server.base)
    page = desktop_page
    first = open_deck(page, server)
    assert page.count("#join-puzzle") == 1, f"{page.engine}: no puzzle on the page"
    assert page.evaluate("() => isSecureContext && typeof crypto.subtle.digest") == "function"
    wait_settled(page)  # the entrance is over (a button pressed during it is ignored), and the card read
    time.sleep(0.4)
    page.click(".ctl-like")
    wait_thrown(page, first)
    (row,) = wait_swipes(server, 1, timeout=20)
    assert (str(row["cardId"]), row["direction"], row["input"], row["suspect"]) == (first, "right", "button", 0)
    wait_queue_empty(page)
    page.wait_for("() => performance.getEntriesByName('deck-joined').length === 1", what="the page joined")
