"""The swiper's stack page in each of its states (issue 26), on a 390×844 touch phone and a
1280×800 desktop, with real touch, mouse and keyboard input: closed, limit reached, no cards,
finished, offline; the deck's description and the first-visit hint; a long title; the classic
profile's level drag; the front page; a crowd past the join budget (issue 25 item 2). Screenshots
of every state go to artifacts/screenshots/stack-*.png."""
import json
import random
import re
import time
import urllib.request

import pytest

from deckkit import (
    ADMIN_TOKEN, DESKTOP, PHONE, SHOTS, TOP, Mouse, open_deck, poll, queue, spend_join_budget, swipes, top_box,
    top_card, touch_gesture, wait_swipes, wait_thrown,
)

OWNER = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
SIZES = {"phone": dict(viewport=PHONE, has_touch=True), "desktop": dict(viewport=DESKTOP)}


def make_deck(server, slug, cards=4, **settings):
    """A deck of `cards` cards (or the given list) with `settings` PATCHed (open, quota, profile…).
    No cards: one card, archived (the API makes no deck without cards; archiving all does)."""
    titles = cards if isinstance(cards, list) else [f"Card {i}" for i in range(1, cards + 1)]
    if not titles:
        make_deck(server, slug, ["Archived"], **settings)
        _, _, page = server.request("GET", f"/api/v1/decks/{slug}/cards", None, OWNER)
        status, _, text = server.request("POST", f"/api/v1/decks/{slug}/cards/{page['cards'][0]['id']}/archive", {}, OWNER)
        assert status == 200, text
        return
    body = {"slug": slug, "title": settings.pop("title", slug.title()), "cards": [{"title": t} for t in titles]}
    for key in ("description", "profile", "labels"):
        if key in settings:
            body[key] = settings.pop(key)
    status, _, text = server.request("POST", "/api/v1/decks", body, OWNER)
    assert status == 201, text
    if settings:
        status, _, text = server.request("PATCH", f"/api/v1/decks/{slug}", settings, OWNER)
        assert status == 200, text


def shoot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"stack-{name}.png"))


@pytest.fixture(params=list(SIZES))
def device(request, chromium):
    """(size name, page): a phone with touch and a desktop with a mouse; fails on uncaught page errors."""
    ctx = chromium.new_context(**SIZES[request.param])
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(10_000)
    yield request.param, page
    ctx.close()
    assert not errors, f"uncaught page errors: {errors}"


def real_drag(page, size, dx, dy=0):
    """A person's drag of the top card by (dx, dy): a finger on the phone, the mouse on the desktop."""
    box = top_box(page)
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    if size == "phone":
        touch_gesture(page.context.new_cdp_session(page), x0, y0, dx, dy, moves=18, rng=random.Random(7))
    else:
        Mouse(page).drag(x0, y0, dx, dy, 320, 16, rng=random.Random(7))


def visible_state(page):
    """The class of the one state panel shown, or '' when none is."""
    return page.evaluate("""() => [...document.querySelectorAll('.stack-state')]
        .filter((e) => !e.hidden).map((e) => e.className.match(/state-(\\w+)/)[1]).join(',')""")


def direction_buttons_disabled(page):
    return page.evaluate("() => [...document.querySelectorAll('.controls [name=direction]')].every((b) => b.disabled)")


# ---------------------------------------------------------------- closed

def test_closed_deck_takes_no_drag_no_button_no_key(server, device):
    """A closed deck says so on a styled panel; a drag, a key or a button throws nothing, no toast."""
    size, page = device
    make_deck(server, "shut", open=False)
    open_deck(page, server, "shut")
    assert visible_state(page) == "closed"
    panel = page.locator(".state-closed")
    assert "This deck is closed" in panel.inner_text()
    # Styled by the swiper's own stylesheet: a surface with a radius, above the cards.
    style = panel.evaluate("e => { const s = getComputedStyle(e); return [s.position, s.borderRadius, s.zIndex]; }")
    assert style[0] == "absolute" and style[1] != "0px" and int(style[2]) > 99, style
    assert direction_buttons_disabled(page)
    assert page.locator(".ctl-undo").is_disabled()
    before = top_card(page)
    real_drag(page, size, 240)
    page.keyboard.press("ArrowRight")
    time.sleep(1.0)
    assert page.locator("#stack .card.leaving").count() == 0, "a card flew off a closed deck"
    assert top_card(page) == before
    assert page.inner_text(".toast") == ""
    assert swipes(server) == []
    assert page.text_content("#remaining") == "4"
    time.sleep(0.5)  # the panel's pop-in
    shoot(page, f"closed-{size}")


# ---------------------------------------------------------------- limit reached

def test_my_swipes_on_a_closed_deck_offers_no_undo_or_flip(server, desktop):
    """The deck closed after a decision: My swipes says the picks cannot change now, and a click or a
    drag on a row reveals no Undo or Flip (the server would refuse them, 409 deck_closed)."""
    page = desktop
    make_deck(server, "later", cards=3)
    first = open_deck(page, server, "later")
    page.evaluate("localStorage.setItem('sd-hint-seen:later', '1')")
    page.click(".ctl-like")
    wait_thrown(page, first)
    wait_swipes(server, 1, timeout=10)
    status, _, text = server.request("PATCH", "/api/v1/decks/later", {"open": False}, OWNER)
    assert status == 200, text
    page.goto(f"{server.base}/d/later/history")
    assert "This deck is closed: your picks are kept as they are and cannot be changed now." in page.inner_text(".history")
    assert page.locator(".row").count() == 1
    assert page.locator(".row-actions, .act-undo, .act-flip").count() == 0
    page.click(".row")
    time.sleep(0.3)
    assert page.evaluate("getComputedStyle(document.querySelector('.row-front')).transform") in ("none", "matrix(1, 0, 0, 1, 0, 0)")


def test_past_the_quota_no_card_flies_and_undo_opens_it_again(server, device):
    """Each person decides up to 2 cards: after two real drags the page shows its limit panel, a third
    drag and the arrow keys move nothing, the count stays, no 'Not counted' toast; an undo frees one."""
    size, page = device
    make_deck(server, "share", cards=5, quota=2)
    first = open_deck(page, server, "share")
    # The counter counts what this person may still decide, and the hint says the limit.
    assert page.text_content("#remaining") == "2"
    assert "You decide up to 2 of these cards." in page.text_content(".hint-text")
    page.evaluate("localStorage.setItem('sd-hint-seen:share', '1')")
    real_drag(page, size, 230)
    second = wait_thrown(page, first)
    page.wait_for_function("sel => !document.querySelector(sel).getAttribute('style')", arg=TOP)
    real_drag(page, size, -230)
    page.wait_for_function("() => document.querySelector('.deck-page').dataset.state === 'limitReached'")
    wait_swipes(server, 2, timeout=10)
    assert visible_state(page) == "limitReached"
    assert "up to 2 cards" in page.inner_text(".state-limitReached")
    assert direction_buttons_disabled(page)
    assert page.text_content("#remaining") == "0"
    third = top_card(page)
    assert third not in (first, second)
    real_drag(page, size, 230)
    page.keyboard.press("ArrowLeft")
    time.sleep(1.0)
    assert page.text_content("#remaining") == "0", "the counter moved past the quota"
    assert page.inner_text(".toast") == "", "a 'Not counted' toast past the quota"
    assert len(swipes(server)) == 2
    time.sleep(0.5)  # the panel's pop-in
    shoot(page, f"limit-{size}")
    page.keyboard.press("z")
    page.wait_for_function("() => document.querySelector('.deck-page').dataset.state === 'open'")
    assert visible_state(page) == ""
    assert not direction_buttons_disabled(page)
    assert page.text_content("#remaining") == "1", "after an undo one decision is free again"


def test_a_quota_reached_elsewhere_is_a_state_not_a_toast(server, desktop):
    """The server refuses with quota_reached (decisions made on another device): the card comes back,
    the page shows its limit panel, no 'Not counted' toast."""
    page = desktop
    make_deck(server, "elsewhere", cards=4, quota=1)
    first = open_deck(page, server, "elsewhere")
    last = page.eval_on_selector_all("#stack .card", "cards => cards.at(-1).dataset.card")
    # The same browser's cookie decides another card behind the page's back (the page still says 0 decided).
    page.request.post(f"{server.base}/d/elsewhere/swipe", form={"card": last, "direction": "left"})
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('.deck-page').dataset.state === 'limitReached'")
    assert page.inner_text(".toast") == ""
    # The refused card springs back on top (after the state: the panel shows as the card returns).
    page.wait_for_function("([sel, id]) => document.querySelector(sel)?.dataset.card === id", arg=[TOP, first], timeout=5000)
    assert len([r for r in swipes(server) if r["undoneAt"] is None]) == 1


# ---------------------------------------------------------------- no cards, finished

def test_no_cards_is_not_all_caught_up(server, device):
    size, page = device
    make_deck(server, "bare", cards=[])
    page.goto(f"{server.base}/d/bare")
    page.wait_for_function("document.querySelector('.deck-page').dataset.ready === 'true'")
    assert visible_state(page) == "noCards"
    text = page.inner_text(".state-noCards")
    assert "No cards yet" in text and "caught up" not in page.inner_text(".stack-wrap")
    assert direction_buttons_disabled(page)
    time.sleep(0.5)  # the panel's pop-in
    shoot(page, f"no-cards-{size}")


def test_finished_when_every_card_is_decided(server, device):
    size, page = device
    make_deck(server, "pair", cards=2)
    first = open_deck(page, server, "pair")
    page.evaluate("localStorage.setItem('sd-hint-seen:pair', '1')")
    real_drag(page, size, 230)
    second = wait_thrown(page, first)
    page.wait_for_function("sel => !document.querySelector(sel).getAttribute('style')", arg=TOP)
    real_drag(page, size, -230)
    page.wait_for_function("() => document.querySelector('.deck-page').dataset.state === 'finished'")
    assert visible_state(page) == "finished"
    assert "You're all caught up" in page.inner_text(".state-finished")
    assert direction_buttons_disabled(page)
    wait_swipes(server, 2, timeout=10)
    assert second
    time.sleep(0.5)
    shoot(page, f"finished-{size}")


# ---------------------------------------------------------------- offline

def test_offline_shows_at_once_and_counts_what_waits(server, device):
    """Offline is said the moment it happens, with cards still on the stack; swipes made offline are
    counted as waiting; back online they are sent and the notice goes."""
    size, page = device
    first = open_deck(page, server)
    page.evaluate("localStorage.setItem('sd-hint-seen:getaways', '1')")
    banner = page.locator(".offline-banner")
    assert banner.is_hidden()
    page.context.set_offline(True)
    banner.wait_for(state="visible", timeout=2000)
    assert "You are offline" in banner.inner_text()
    assert page.locator(TOP).count() == 1, "cards are still there"
    real_drag(page, size, 230)
    second = wait_thrown(page, first)
    page.wait_for_function("sel => !document.querySelector(sel).getAttribute('style')", arg=TOP)
    page.keyboard.press("ArrowLeft")
    wait_thrown(page, second)
    page.wait_for_function("() => document.querySelector('.offline-banner').textContent.includes('2 swipes wait')")
    assert len(queue(page)) == 2
    shoot(page, f"offline-{size}")
    page.context.set_offline(False)
    wait_swipes(server, 2, timeout=20)
    banner.wait_for(state="hidden", timeout=10_000)


# ---------------------------------------------------------------- description, hint, title

def test_description_hint_and_a_long_title_on_the_stack(server, device):
    """The deck's description shows; a first visit explains left and right in the deck's own labels
    until 'Got it' (pressed with the keyboard), remembered after a reload; a long title is whole."""
    size, page = device
    title = "The very long title of a deck about weekend getaways in the mountains and by the sea"
    make_deck(server, "words", title=title, description="Pick the places you would go to this summer.",
              labels={"left": "SKIP", "right": "GO", "up": "SUPER", "down": "LATER"})
    open_deck(page, server, "words")
    assert page.inner_text(".deck-description") == "Pick the places you would go to this summer."
    hint = page.locator(".swipe-hint")
    hint.wait_for(state="visible")
    text = hint.inner_text()
    assert "left for SKIP" in text and "right for GO" in text, text
    heading = page.locator(".deck-title")
    assert heading.inner_text() == title
    cut = heading.evaluate("e => e.scrollWidth > e.clientWidth || getComputedStyle(e).textOverflow === 'ellipsis'")
    assert not cut, "the title is cut"
    box = heading.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]
    # The stack gives up what the title and description take: the buttons stay on screen.
    like = page.locator(".ctl-like").bounding_box()
    assert like["y"] + like["height"] <= page.viewport_size["height"], like
    shoot(page, f"hint-{size}")
    page.focus(".hint-dismiss")
    page.keyboard.press("Enter")
    hint.wait_for(state="hidden")
    page.reload()
    page.wait_for_function("document.querySelector('.deck-page').dataset.ready === 'true'")
    time.sleep(0.3)
    assert hint.is_hidden(), "the hint came back after it was dismissed"


def test_a_first_decision_dismisses_the_hint(server, desktop):
    page = desktop
    first = open_deck(page, server)
    page.locator(".swipe-hint").wait_for(state="visible")
    page.keyboard.press("ArrowRight")
    wait_thrown(page, first)
    assert page.locator(".swipe-hint").is_hidden()
    assert page.evaluate("localStorage.getItem('sd-hint-seen:getaways')") == "1"


def test_a_drag_that_starts_on_the_hint_moves_the_card(server, device):
    """The hint lies over the top of the card and says 'drag a card': a drag that starts on its text
    throws the card (a field test's first drag there did nothing, and on a phone went to the browser's
    back gesture); only its 'Got it' button takes the pointer."""
    size, page = device
    first = open_deck(page, server)
    text = page.locator(".hint-text")
    text.wait_for(state="visible")
    box = text.bounding_box()
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    if size == "phone":
        touch_gesture(page.context.new_cdp_session(page), x0, y0, 260, 0, moves=18, rng=random.Random(7))
    else:
        Mouse(page).drag(x0, y0, 260, 0, 320, 16, rng=random.Random(7))
    wait_thrown(page, first)
    assert page.evaluate("getSelection().toString()") == ""


# ---------------------------------------------------------------- classic profile

def test_classic_level_drag_of_260px_counts_on_a_phone(server, chromium):
    """A clean horizontal 260 px finger drag on a 390 px phone throws a classic card (it needed ~2 %
    vertical movement before) and the server stores it with the same decision."""
    make_deck(server, "classic", cards=3, profile="classic")
    ctx = chromium.new_context(**SIZES["phone"], reduced_motion="reduce")
    try:
        page = ctx.new_page()
        first = open_deck(page, server, "classic")
        page.evaluate("localStorage.setItem('sd-hint-seen:classic', '1')")
        box = top_box(page)
        x0, y0 = box["x"] + 60, box["y"] + box["height"] / 2
        cdp = ctx.new_cdp_session(page)
        # Exactly level: every move on the starting row.
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0, "id": 1}]})
        for i in range(1, 21):
            time.sleep(0.016)
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x0 + 13 * i, "y": y0, "id": 1}]})
        time.sleep(0.016)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        wait_thrown(page, first)
        rows = wait_swipes(server, 1, timeout=10)
        assert rows[0]["direction"] == "right" and rows[0]["input"] == "drag", rows
        trace = json.loads(rows[0]["trace"])
        assert set(trace["y"]) == {0} and trace["x"][-1] == pytest.approx(260, abs=1), trace
    finally:
        ctx.close()


def test_profile_descriptions_say_what_the_swiper_does(server):
    """Every profile's description (the deck form shows them) is in plain words: no seeds, ratios or jargon."""
    status, _, text = server.request("GET", "/api/v1/profiles")
    assert status == 200, text
    summaries = [p["summary"] for p in text["profiles"]]
    assert len(summaries) == 6
    for summary in summaries:
        assert not re.search(r"seed|pan\b|x/width|\|y\||ratio|fling", summary, re.I), summary


# ---------------------------------------------------------------- the front page

def test_front_page_lists_open_listed_decks_with_cards(server, desktop):
    page = desktop
    make_deck(server, "shut", open=False)
    make_deck(server, "bare", cards=[])
    make_deck(server, "quiet", listed=False)
    make_deck(server, "single", cards=1)
    page.goto(f"{server.base}/")
    tiles = page.locator(".deck-tile")
    hrefs = [tiles.nth(i).get_attribute("href") for i in range(tiles.count())]
    assert "/d/single" in hrefs and "/d/getaways" in hrefs
    for gone in ("/d/shut", "/d/bare", "/d/quiet"):
        assert gone not in hrefs, hrefs
    single = page.locator('.deck-tile[href="/d/single"] .pill').inner_text()
    assert single == "1 card", single
    shoot(page, "front-page-desktop")


# ---------------------------------------------------------------- a crowd past the join budget

def test_past_the_join_budget_the_page_waits_in_plain_words_or_solves_the_puzzle(make_server, chromium):
    """--rate-mint 0.1: 6 joins at once, then one every 10 s. A browser without scripts gets a page that says
    to wait in a plain sentence (no API message) and reloads itself after Retry-After; with scripts the
    page comes with a join puzzle, the person swipes at once, and the swipe is stored once the puzzle is
    solved (test_join_puzzle.py times it on a throttled phone)."""
    server = make_server(extra_args=["--rate-mint", "0.1"])
    spend_join_budget(server.base)
    with urllib.request.urlopen(f"{server.base}/d/getaways") as r:
        retry = int(r.headers["Retry-After"])
        assert 1 <= retry <= 10 and not r.headers.get("Set-Cookie")

    nojs = chromium.new_context(**SIZES["phone"], java_script_enabled=False)
    try:
        page = nojs.new_page()
        page.goto(f"{server.base}/d/getaways")
        panel = page.locator(".state-joining")
        assert panel.is_visible()
        assert "Many people are joining from your network" in panel.inner_text()
        assert page.locator('meta[http-equiv="refresh"]').count() == 1
        time.sleep(0.5)  # the panel's pop-in
        shoot(page, "joining-nojs-phone")
        assert page.locator(".ctl-like").is_disabled()
        assert "POST" not in page.inner_text("body") and "participant" not in page.inner_text("body").lower()
    finally:
        nojs.close()

    for size in SIZES:
        spend_join_budget(server.base)  # what refilled meanwhile
        ctx = chromium.new_context(**SIZES[size])
        try:
            page = ctx.new_page()
            first = open_deck(page, server)
            assert page.locator("#join-puzzle").count() == 1
            assert visible_state(page) == ""
            rows_before = len(swipes(server))
            time.sleep(0.4)  # reading the card
            page.keyboard.press("ArrowRight")
            wait_thrown(page, first)
            shoot(page, f"joining-{size}")
            body = page.inner_text("body")
            assert "POST" not in body and "participant id" not in body, body
            poll(lambda: len(swipes(server)) == rows_before + 1, timeout=25, interval=0.25, what="the swipe stored")
            page.locator(".offline-banner").wait_for(state="hidden", timeout=5000)
            assert queue(page) == []
            assert page.inner_text(".toast") == ""
            assert swipes(server)[-1]["suspect"] == 0
        finally:
            ctx.close()


def test_a_form_swipe_without_an_id_shows_the_plain_page(make_server, chromium):
    """Without scripts, a button pressed before an id arrived leads back to the deck's plain page, not
    the API's error."""
    server = make_server(extra_args=["--rate-mint", "0.1"])
    ctx = chromium.new_context(**SIZES["desktop"], java_script_enabled=False)
    try:
        page = ctx.new_page()
        page.goto(f"{server.base}/d/getaways")
        card = page.get_attribute('input[name="card"]', "value")
        ctx.clear_cookies()
        spend_join_budget(server.base)
        response = page.request.post(f"{server.base}/d/getaways/swipe", form={"card": card, "direction": "right"})
        assert response.ok, response.status
        text = response.text()
        assert "Many people are joining from your network" in text
        assert "POST /api" not in text and "participant_required" not in text
    finally:
        ctx.close()


# ---------------------------------------------------------------- the stack's edge, the way to My swipes

def test_the_next_card_peeks_a_clean_edge_not_a_sliver(server, device):
    """The card under the top one shows a deliberate edge above it (the profile's 6 px offset), never a
    1–2 px sliver; the one under it 12 px."""
    size, page = device
    open_deck(page, server)
    page.evaluate("localStorage.setItem('sd-hint-seen:getaways', '1')")
    time.sleep(0.6)  # the stack's own transition settles
    tops = page.evaluate("""() => [0, 1, 2].map((d) =>
        document.querySelector(`#stack .card[data-depth="${d}"]`).getBoundingClientRect().top)""")
    peeks = [tops[0] - tops[1], tops[0] - tops[2]]
    assert peeks[0] == pytest.approx(6, abs=0.5) and peeks[1] == pytest.approx(12, abs=0.5), peeks
    box = page.locator(".stack-wrap").bounding_box()
    page.screenshot(path=str(SHOTS / f"stack-edge-{size}.png"),
                    clip={"x": box["x"] - 10, "y": box["y"] - 30, "width": box["width"] + 20, "height": 90})


def test_deck_to_my_swipes_logs_no_aborted_transition(server, desktop):
    """Deck → My swipes → Deck: no 'Transition was aborted because of invalid state' in the console."""
    page = desktop
    messages = []
    page.on("console", lambda m: messages.append(f"{m.type}: {m.text}"))
    open_deck(page, server)
    for _ in range(2):
        page.click("nav >> text=My swipes")
        page.wait_for_url("**/history")
        page.wait_for_load_state("load")
        time.sleep(0.5)
        page.click("nav >> text=Deck")
        page.wait_for_url("**/d/getaways")
        page.wait_for_load_state("load")
        time.sleep(0.5)
    bad = [m for m in messages if m.startswith("error") or "Transition" in m]
    assert bad == [], bad
