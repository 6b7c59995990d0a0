"""Defects a user walkthrough found on the deck page (issue 13), each checked in a real browser:
fetched cards built from their own data, the offline state, two tabs on one deck, a double click,
screen-reader announcements and names, arrow keys on a page that scrolls."""
import re
import time

import pytest

from deckkit import ADMIN_TOKEN, TOP, open_deck, poll, queue, swipes, top_card, wait_swipes, wait_thrown

# Card 1 has an image and card 2 none: the old shim copied the first card's markup for every fetched
# card, so a fetched card without an image showed the first card's image element with a stale or
# empty src, and one with an image showed none when the first card had none.
MIXED = [
    {"title": "With image", "image": "/img/sample/01-mirror-lake.svg", "accent": "#112233"},
    {"title": "Without image", "accent": "#445566"},
] + [
    {"title": f"Card {i}", "accent": f"#{i:02d}{i:02d}aa", **({"image": "/img/sample/02-saffron-dunes.svg"}
                                                             if i % 3 == 0 else {})}
    for i in range(3, 16)
] + [{"title": "שלום עולם", "subtitle": "כותרת משנה", "accent": "#aa0000"}]


def create_deck(server, slug, cards):
    status, _, body = server.request("POST", "/api/v1/decks", {"slug": slug, "title": slug.title(), "cards": cards},
                                     {"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert status == 201, body


def card_dom(page):
    return page.eval_on_selector(TOP, """e => ({
        title: e.querySelector('.card-title').textContent,
        image: e.querySelector('.card-media img')?.getAttribute('src') ?? '',
        fill: e.querySelector('.placeholder rect').getAttribute('fill'),
        named: document.getElementById(e.getAttribute('aria-labelledby'))?.textContent,
        direction: getComputedStyle(e.querySelector('.card-title')).direction,
    })""")


def test_every_card_shows_its_own_image_or_placeholder(server, desktop):
    """Past the cards in the page's HTML (8) every card is fetched: each shows its own image, or its
    own accent placeholder and no image element; it is named by its title; right-to-left text runs
    right to left."""
    create_deck(server, "mixed", MIXED)
    page = desktop
    open_deck(page, server, "mixed")
    for expected in MIXED:
        dom = card_dom(page)
        assert dom["title"] == expected["title"]
        # Cards in the page's HTML name static images by their hashed URLs; fetched ones by the stored path.
        assert re.sub(r"\.[0-9a-f]{10}(\.svg)$", r"\1", dom["image"]) == expected.get("image", ""), dom
        assert dom["fill"].lower() == expected["accent"], dom
        assert dom["named"] == expected["title"], "the card is named by its title"
        rtl = expected["title"].startswith("ש")
        assert dom["direction"] == ("rtl" if rtl else "ltr"), dom
        top = top_card(page)
        page.keyboard.press("ArrowRight")
        if expected is not MIXED[-1]:
            wait_thrown(page, top)
    page.wait_for_selector(".empty-state:not([hidden])")


def test_out_of_cards_offline_says_what_waits(server, desktop):
    """Offline, when the loaded cards run out, the page says the device is offline and how many swipes
    wait; back online they are sent and the deck goes on."""
    page = desktop
    open_deck(page, server)
    loaded = page.locator("#stack .card").count()
    page.context.set_offline(True)
    for _ in range(loaded):
        top = top_card(page)
        page.click(".ctl-like")
        page.wait_for_function("c => document.querySelector(`#stack [data-card='${c}']:not(.leaving)`) === null",
                               arg=top)
    state = page.locator(".offline-state")
    state.wait_for(state="visible", timeout=10_000)
    assert page.locator(".empty-state").is_hidden()
    text = state.inner_text()
    assert "offline" in text.lower(), text
    assert f"{loaded} swipes wait on this device" in text, text
    assert "will be sent" in text, text
    assert swipes(server) == []
    page.context.set_offline(False)
    wait_swipes(server, loaded, timeout=20)
    page.wait_for_selector(TOP, timeout=10_000)
    assert state.is_hidden()


def test_two_tabs_share_what_is_decided(server, chromium):
    """A tab opened earlier never offers a card decided in another tab of the same browser."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    try:
        older = context.new_page()
        newer = context.new_page()
        open_deck(older, server)
        open_deck(newer, server)
        decided = []
        for _ in range(3):
            top = top_card(newer)
            newer.click(".ctl-like")
            wait_thrown(newer, top)
            decided.append(top)
        wait_swipes(server, 3)
        poll(lambda: top_card(older) not in decided, timeout=5, what="the older tab dropping decided cards")
        stack = older.eval_on_selector_all("#stack .card:not(.leaving)", "cs => cs.map(c => c.dataset.card)")
        assert not set(stack) & set(decided), stack
        assert older.inner_text("#remaining") == newer.inner_text("#remaining")
        for _ in range(2):
            top = top_card(older)
            older.click(".ctl-nope")
            wait_thrown(older, top)
        rows = wait_swipes(server, 5)
        assert len({r["cardId"] for r in rows}) == 5
        time.sleep(0.5)
        assert "Not counted" not in older.inner_text(".toast")
    finally:
        context.close()


def test_double_click_decides_one_card(server, desktop):
    page = desktop
    first = open_deck(page, server)
    page.dblclick(".ctl-like")
    wait_thrown(page, first)
    (row,) = wait_swipes(server, 1)
    time.sleep(1.0)
    assert len(swipes(server)) == 1, "a double click liked two cards"
    assert row["cardId"] == int(first)
    assert queue(page) == []


def test_next_card_is_announced(server, desktop):
    page = desktop
    first = open_deck(page, server)
    remaining = int(page.inner_text("#remaining"))
    page.keyboard.press("ArrowLeft")
    nxt = wait_thrown(page, first)
    title = page.eval_on_selector(TOP, "e => e.querySelector('.card-title').textContent")
    assert page.get_attribute("#announce", "aria-live") == "polite"
    assert page.inner_text("#announce") == f"Next: {title}. {remaining - 1} left."
    assert nxt != first


@pytest.mark.parametrize("focus_deck", [False, True])
def test_arrow_keys_scroll_a_short_screen(server, chromium, focus_deck):
    """On a screen too short for the deck, up and down arrows scroll the page while nothing has focus;
    with the deck focused (a click or Tab) the arrows are the deck's."""
    context = chromium.new_context(viewport={"width": 390, "height": 360})
    try:
        page = context.new_page()
        first = open_deck(page, server)
        assert page.evaluate("document.scrollingElement.scrollHeight > innerHeight + 40")
        if focus_deck:
            page.focus("#stack")
            page.keyboard.press("ArrowDown")
            time.sleep(0.3)
            assert page.evaluate("scrollY") == 0, "with the deck focused an arrow does not scroll"
            page.keyboard.press("ArrowRight")
            wait_thrown(page, first)
        else:
            page.keyboard.press("ArrowDown")
            page.keyboard.press("ArrowDown")
            page.wait_for_function("() => scrollY > 0")
            assert top_card(page) == first
    finally:
        context.close()


def record_scales(page, selector):
    page.eval_on_selector(selector, """e => { window.scales = [];
        new MutationObserver(() => scales.push(e.style.transform))
            .observe(e, { attributes: true, attributeFilter: ['style'] }); }""")


def scale_values(page):
    return [float(t[len("scale("):-1]) for t in page.evaluate("window.scales") if t.startswith("scale(")]


def test_buttons_and_count_answer_with_the_profile_spring(server, desktop):
    """Seed 001's buttons and labels with a twist: a pressed button shrinks to the profile's pressScale,
    springs back past 1 (ζ < 1) and settles with no transform left; the count pill bounces when it changes."""
    page = desktop
    first = open_deck(page, server)
    profile = page.evaluate("JSON.parse(document.querySelector('#swipe-profile').textContent)")
    # The springs run on requestAnimationFrame and performance.now: on a paused clock they step frame by
    # frame, so every frame is recorded however slowly a loaded machine draws (one that skipped frames
    # missed the overshoot).
    page.clock.install()
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    record_scales(page, ".ctl-like")
    box = page.locator(".ctl-like").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    assert page.eval_on_selector(".ctl-like", "e => e.style.transform") == f"scale({profile['pressScale']})"
    page.mouse.up()
    page.clock.run_for(2000)
    wait_thrown(page, first)
    assert page.eval_on_selector(".ctl-like", "e => e.style.transform") == ""
    scales = scale_values(page)
    assert min(scales) == pytest.approx(profile["pressScale"]), scales
    assert max(scales) > 1.0, f"no overshoot from the press spring: {scales}"
    record_scales(page, ".counter")
    page.keyboard.press("ArrowLeft")
    page.clock.run_for(2000)
    assert page.eval_on_selector(".counter", "e => e.style.transform") == ""
    scales = scale_values(page)
    assert len(scales) > 3 and min(scales) < 1.0, scales


def test_no_press_spring_under_reduced_motion(server, chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    try:
        page = context.new_page()
        first = open_deck(page, server)
        record_scales(page, ".ctl-like")
        page.click(".ctl-like")
        wait_thrown(page, first)
        time.sleep(0.5)
        assert page.evaluate("window.scales") == []
    finally:
        context.close()
