"""Phone (390×844, has_touch, not is_mobile): touch swipes through CDP Input.dispatchTouchEvent,
vertical scrolling over the card with left/right-only profiles, and taps on the card's link."""
import json
import random
import re
import time

import pytest

from deckkit import ADMIN_TOKEN, TOP, assert_no_swipes, open_deck, top_box, top_card, touch_gesture, wait_swipes, wait_thrown

OWNER = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


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


def record_transforms(page):
    """Every inline transform the top card gets from now on, in window.moves."""
    page.eval_on_selector(TOP, """e => { window.moves = [];
        new MutationObserver(() => e.style.transform && moves.push(e.style.transform))
            .observe(e, { attributes: true, attributeFilter: ['style', 'class'] }); }""")


def test_steep_touch_swipe_throws_card(server, phone):
    """A swipe 60° from horizontal on a page that cannot scroll throws the card, as a native card stack
    does (with touch-action: pan-y the browser took it as a scroll, cancelled it and the card sprang back)."""
    page = phone
    first = open_deck(page, server)
    assert page.evaluate("document.scrollingElement.scrollHeight <= innerHeight"), "this page must not scroll"
    box = top_box(page)
    cdp = page.context.new_cdp_session(page)
    x0, y0 = box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.75
    dx = box["width"] * 0.5
    touch_gesture(cdp, x0, y0, dx, -dx * 3 ** 0.5, moves=20, interval_ms=16, rng=random.Random(3))
    assert wait_thrown(page, first) != first
    (row,) = wait_swipes(server, 1)
    assert (row["cardId"], row["direction"], row["input"]) == (int(first), "right", "drag")


def test_vertical_touch_on_card_moves_it_and_springs_back(server, phone):
    """A straight vertical drag on a left/right deck moves the card with the finger and decides nothing."""
    page = phone
    first = open_deck(page, server)
    record_transforms(page)
    box = top_box(page)
    cdp = page.context.new_cdp_session(page)
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.7
    touch_gesture(cdp, x0, y0, 4, -260, moves=16, interval_ms=16, rng=random.Random(9))
    assert page.evaluate("window.moves.length") > 3, "the card must follow the finger"
    page.wait_for_function("s => !document.querySelector(s).style.transform", arg=TOP)
    assert_no_swipes(server, settle=1.5)
    assert top_card(page) == first


def test_vertical_touch_outside_card_scrolls_page(server, phone):
    page = phone
    first = open_deck(page, server)
    # CSP forbids inline <style>; CSSOM writes are allowed. Make the page scrollable.
    page.evaluate("document.body.style.minHeight = '3000px'")
    page.evaluate("window.scrollTo(0, 0)")
    assert page.evaluate("document.documentElement.scrollHeight") > 844 + 500
    record_transforms(page)
    cdp = page.context.new_cdp_session(page)
    below = page.locator(".controls").bounding_box()
    touch_gesture(cdp, 12, below["y"] + below["height"] + 40, 4, -320, moves=16, interval_ms=16,
                  rng=random.Random(4))
    page.wait_for_function("() => window.scrollY > 100")
    assert page.evaluate("window.moves") == [], "the card must not move when the page scrolls"
    assert_no_swipes(server, settle=1.0)
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


def test_a_card_without_an_image_opens_on_a_tap_of_its_pill_and_a_click(server, phone, desktop):
    """Issue 39 D2: a card without an image (a plain CSV import) shows the placeholder's logo layer, which
    must not cover the card: a tap on "Details ›" and a mouse click on the card open the detail view."""
    status, _, text = server.request("POST", "/api/v1/decks", {"slug": "plain", "title": "Plain",
                                     "cards": [{"title": "Tea"}, {"title": "Coffee"}]}, OWNER)
    assert status == 201, text
    first = open_deck(phone, server, "plain")
    assert phone.locator(f"{TOP} .card-media img").count() == 0
    b = phone.locator(f"{TOP} .card-link").bounding_box()
    phone.touchscreen.tap(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
    phone.wait_for_url(re.compile(rf"/d/plain/cards/{first}$"))
    first = open_deck(desktop, server, "plain")
    b = desktop.locator(f"{TOP} .card-link").bounding_box()
    desktop.mouse.click(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
    desktop.wait_for_url(re.compile(rf"/d/plain/cards/{first}$"))
