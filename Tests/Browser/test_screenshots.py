"""Screenshots for people to look at (artifacts/screenshots/, gitignored), with layout checks that fail
when the page is visibly broken: the card on screen, the controls reachable, the LIKE stamp showing."""
import random

from deckkit import DESKTOP, PHONE, SHOTS, TOP, Mouse, open_deck, top_box, wait_swipes, wait_thrown


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
    page.goto(server.base + "/d/getaways/results")
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(SHOTS / "results-desktop.png"), full_page=True)
    text = page.inner_text("main")
    assert "Mirror Lake" in text, "the first (liked) card is listed in the results"
