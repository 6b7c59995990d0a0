"""Screenshots for people to look at (artifacts/screenshots/, gitignored), with layout checks that fail
when the page is visibly broken: the card on screen, the controls reachable, the LIKE stamp showing."""
import random
import urllib.parse

from deckkit import DESKTOP, PHONE, SHOTS, TOP, Mouse, as_owner, open_deck, top_box, wait_swipes, wait_thrown
from signed_ids import pid


def check_deck_layout(page, viewport):
    card = page.locator(TOP).bounding_box()
    assert card["width"] > 200 and card["height"] > 250, card
    assert card["x"] >= 0 and card["x"] + card["width"] <= viewport["width"], f"card off screen horizontally: {card}"
    assert card["y"] >= 0 and card["y"] + card["height"] <= viewport["height"], f"card off screen vertically: {card}"
    for sel in (".ctl-nope", ".ctl-like", ".ctl-undo"):
        b = page.locator(sel).bounding_box()
        assert b and b["y"] + b["height"] <= viewport["height"], f"{sel} not on screen: {b}"
        assert b["y"] >= card["y"] + card["height"] - 40, f"{sel} overlaps the card: {b} vs {card}"
    # Cards under the top one are stacked behind it, not laid out below it.
    for under in page.locator('#stack .card:not([data-depth="0"])').all():
        b = under.bounding_box()
        assert abs(b["x"] - card["x"]) < 40 and abs(b["y"] - card["y"]) < 60, f"stacked card misplaced: {b} vs {card}"
    # The title of the top card is visible in the card.
    title = page.locator(f"{TOP} .card-title").bounding_box()
    assert title and card["y"] <= title["y"] < card["y"] + card["height"]


def test_deck_page_phone_and_desktop(server, chromium):
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name, viewport, touch in (("deck-phone", PHONE, True), ("deck-desktop", DESKTOP, False)):
        ctx = chromium.new_context(viewport=viewport, has_touch=touch)
        try:
            page = ctx.new_page()
            open_deck(page, server)
            page.wait_for_load_state("networkidle")
            page.evaluate("document.fonts.ready")
            check_deck_layout(page, viewport)
            page.screenshot(path=str(SHOTS / f"{name}.png"))
        finally:
            ctx.close()


def test_mid_drag_like_overlay(server, desktop):
    page = desktop
    SHOTS.mkdir(parents=True, exist_ok=True)
    first = open_deck(page, server)
    page.wait_for_load_state("networkidle")
    box = top_box(page)
    mouse = Mouse(page)
    # 0.3 of the width: past the overlay ramp's start (25% of the 0.35 threshold), short of a throw.
    mouse.drag(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.55, box["width"] * 0.3, -10,
               duration_ms=500, moves=30, hold_ms=200, release=False, rng=random.Random(1))
    page.wait_for_function("sel => +getComputedStyle(document.querySelector(sel + ' .overlay-right')).opacity > 0.6", arg=TOP)
    page.screenshot(path=str(SHOTS / "mid-drag-like.png"))
    like = page.locator(f"{TOP} .overlay-right")
    assert like.is_visible() and like.inner_text().strip() == "LIKE"
    assert float(page.eval_on_selector(f"{TOP} .overlay-left", "e => getComputedStyle(e).opacity")) == 0
    b = like.bounding_box()
    assert 0 <= b["x"] and b["x"] + b["width"] <= DESKTOP["width"] and 0 <= b["y"] <= DESKTOP["height"]
    mouse.up()
    page.wait_for_function("sel => !document.querySelector(sel).style.transform", arg=TOP)
    assert page.eval_on_selector(TOP, "e => e.dataset.card") == first


def test_results_page_after_swipes(server, desktop):
    page = desktop
    SHOTS.mkdir(parents=True, exist_ok=True)
    open_deck(page, server)
    for sel in (".ctl-like", ".ctl-like", ".ctl-nope", ".ctl-like", ".ctl-nope"):
        top = page.eval_on_selector(TOP, "e => e.dataset.card")
        page.click(sel)
        wait_thrown(page, top)
    wait_swipes(server, 5)
    as_owner(page)
    page.goto(server.base + "/d/getaways/results")
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(SHOTS / "results-desktop.png"), full_page=True)
    text = page.inner_text("main")
    assert "Mirror Lake" in text, "the first (liked) card is listed in the results"


ADMIN_TOKEN = "test-admin-token"  # the shared fixture starts every server with it
LONG_TITLES = ["An extraordinarily long card title that goes on and on past any label column",
               "W" * 60, "Short"]


def form_swipes(server, deck, votes):
    """Button swipes through the deck page's form: votes are (participant, card id, direction)."""
    for who, card, direction in votes:
        status, _, _ = server.request(
            "POST", f"/d/{deck}/swipe", raw=urllib.parse.urlencode({"card": card, "direction": direction}).encode(),
            headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": f"sd_pid={pid(who)}"})
        assert status == 200, (who, card, direction, status)  # the 303 back to the deck, followed


def check_results_fit(page, viewport):
    """No sideways scrolling of the page or the chart; chart text at its CSS size; no label under a rate."""
    m = page.evaluate("""() => {
        const chart = document.querySelector('.chart'), svg = chart.querySelector('svg.bars');
        const r = e => e.getBoundingClientRect();
        return {scrollWidth: document.documentElement.scrollWidth, innerWidth,
                chartScroll: chart.scrollWidth, chartClient: chart.clientWidth, svg: r(svg),
                rows: [...svg.querySelectorAll('.bar')].map(g => {
                    // The title's clipping box: a nested <svg>, whose client rect is its content's, not its own.
                    const t = g.querySelector('.bar-title');
                    return {titleRight: r(svg).left + t.x.baseVal.value + t.width.baseVal.value, label: r(g.querySelector('.bar-label')),
                    value: r(g.querySelector('.bar-value')), track: r(g.querySelector('.bar-bg'))};
                })};
    }""")
    assert m["scrollWidth"] <= m["innerWidth"] == viewport["width"], f"the page scrolls sideways: {m['scrollWidth']}"
    assert m["chartScroll"] <= m["chartClient"], f"the chart scrolls sideways: {m['chartScroll']} > {m['chartClient']}"
    assert m["rows"], "no bars"
    svg = m["svg"]
    for row in m["rows"]:
        # 14 px text renders about 16 px tall; a 600-unit viewBox squeezed into a phone made it about 9.
        assert row["label"]["height"] >= 13 and row["value"]["height"] >= 13, row
        assert row["titleRight"] <= row["value"]["left"], f"the title box runs under the rate: {row}"
        assert svg["left"] - 0.5 <= row["track"]["left"] and row["track"]["right"] <= svg["right"] + 0.5, row
        assert row["value"]["right"] <= svg["right"] + 0.5, row


def test_results_page_fits_a_phone(server, phone):
    """The results page on a 390 px phone: the chart is as wide as the screen allows, long titles included."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    status, _, _ = server.request(
        "POST", "/api/v1/decks", {"slug": "long", "title": "Long titles", "cards": [{"title": t} for t in LONG_TITLES]},
        {"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert status == 201
    for deck in ("getaways", "long"):
        cards = server.request("GET", f"/api/v1/decks/{deck}/cards?limit=12")[2]["cards"]
        # One vote per participant: a person pressing through 12 cards in a burst would be suspect.
        form_swipes(server, deck, [(f"p{who}-{i}", c["id"], "right" if (i + who) % 3 else "left")
                                   for who in range(3) for i, c in enumerate(cards)])
        as_owner(phone)
        phone.goto(f"{server.base}/d/{deck}/results")
        phone.wait_for_load_state("networkidle")
        phone.evaluate("document.fonts.ready")
        check_results_fit(phone, PHONE)
        phone.screenshot(path=str(SHOTS / f"results-phone-{deck}.png"), full_page=True)
    # The long title is cut with an ellipsis in the chart and whole in the table.
    assert phone.locator(".bar-label", has_text="An extraordinarily lo…").count() == 1
    assert phone.locator(".ranked .title", has_text=LONG_TITLES[0]).count() == 1
    # The narrowest phones (320 px) too.
    narrow = {"width": 320, "height": 640}
    phone.set_viewport_size(narrow)
    for deck in ("getaways", "long"):
        phone.goto(f"{server.base}/d/{deck}/results")
        phone.wait_for_load_state("networkidle")
        phone.evaluate("document.fonts.ready")
        check_results_fit(phone, narrow)


def test_deeper_cards_never_show_through(server, desktop):
    """The seed's per-depth alpha must not let the card under the second one show through it (its title
    used to appear as a ghost over the second card's during every drag): with the top card hidden, the
    second card's pixels are the same whether the third card is there or not."""
    page = desktop
    open_deck(page, server)
    page.evaluate("document.querySelector('#stack .card').style.visibility = 'hidden'")
    second = page.locator('#stack .card[data-depth="1"]')
    page.wait_for_timeout(400)  # no transition in flight
    box = second.bounding_box()
    clip = {"x": box["x"] + 8, "y": box["y"] + box["height"] * 0.55, "width": box["width"] - 16, "height": box["height"] * 0.35}
    with_third = page.screenshot(clip=clip)
    page.evaluate("document.querySelector('#stack .card[data-depth=\"2\"]').style.visibility = 'hidden'")
    page.wait_for_timeout(100)
    assert page.screenshot(clip=clip) == with_third, "the third card shows through the second"
