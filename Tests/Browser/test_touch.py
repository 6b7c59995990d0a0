"""Phone (390×844, has_touch, not is_mobile): touch swipes through CDP Input.dispatchTouchEvent,
vertical scrolling over the card with left/right-only profiles, and taps on the card's link."""
import json
import random
import re
import time

import pytest

from deckkit import TOP, assert_no_swipes, open_deck, top_box, top_card, touch_gesture, wait_swipes, wait_thrown


@pytest.mark.parametrize("direction", ["left", "right"])
def test_touch_swipe_is_stored(server, phone, direction):
    page = phone
    first = open_deck(page, server)
    box = top_box(page)
    cdp = page.context.new_cdp_session(page)
    sign = 1 if direction == "right" else -1
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.4
    touch_gesture(cdp, x0, y0, sign * box["width"] * 0.5, 10, moves=20, interval_ms=16, rng=random.Random(5))
    nxt = wait_thrown(page, first)
    assert nxt != first
    (row,) = wait_swipes(server, 1)
    assert (row["cardId"], row["direction"], row["input"]) == (int(first), direction, "drag")
    trace = json.loads(row["trace"])
    assert trace["vw"] == 390 and len(trace["t"]) >= 5


def test_vertical_touch_scrolls_page_not_card(server, phone):
    page = phone
    first = open_deck(page, server)
    # CSP forbids inline <style>; CSSOM writes are allowed. Make the page scrollable.
    page.evaluate("document.body.style.minHeight = '3000px'")
    page.evaluate("window.scrollTo(0, 0)")
    assert page.evaluate("document.documentElement.scrollHeight") > 844 + 500
    box = page.locator(TOP).bounding_box()
    assert box["y"] + box["height"] * 0.6 < 844, "the card should be on screen at the top of the page"
    # Record every inline transform the top card gets during the gesture.
    page.eval_on_selector(TOP, """e => { window.moves = []; new MutationObserver(() => e.style.transform && moves.push(e.style.transform))
                                        .observe(e, { attributes: true, attributeFilter: ['style', 'class'] }); }""")
    cdp = page.context.new_cdp_session(page)
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.6
    touch_gesture(cdp, x0, y0, 6, -320, moves=16, interval_ms=16, rng=random.Random(9))
    page.wait_for_function("window.scrollY > 100")
    assert page.evaluate("window.moves") == [], "the card must not follow a vertical scroll"
    assert page.eval_on_selector(TOP, "e => e.style.transform + '|' + e.classList.contains('dragging')") == "|false"
    assert_no_swipes(server, settle=1.5)
    assert top_card(page) == first


def test_tap_on_card_link_follows_it(server, phone):
    page = phone
    first = open_deck(page, server)
    link = page.locator(f"{TOP} .card-link")
    link.scroll_into_view_if_needed()
    link.tap()
    page.wait_for_url(re.compile(rf"/d/getaways/cards/{first}$"))
    assert_no_swipes(server, settle=1.0)


def test_tap_on_card_body_opens_detail(server, phone):
    page = phone
    first = open_deck(page, server)
    # A tap on the title lands on the card-sized link under the text (the text lets taps through).
    b = page.locator(f"{TOP} .card-title").bounding_box()
    page.touchscreen.tap(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
    page.wait_for_url(re.compile(rf"/d/getaways/cards/{first}$"))
    assert_no_swipes(server, settle=1.0)
