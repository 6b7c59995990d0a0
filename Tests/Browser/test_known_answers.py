"""Quality control, feedback mode (issue 29 item 3): a real mouse drag on a known-answer card tells the
swiper, in the page's status line (an aria-live region), whether it was right; an ordinary card says nothing."""
import random
import sys
from pathlib import Path

from deckkit import ADMIN_TOKEN, Mouse, open_deck, top_box, wait_swipes, wait_thrown

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "System"))
from sd_helpers import card_ids, swipe_body  # noqa: E402
from test_owner_console import add_owner, sign_in  # noqa: E402

OWNER = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def labelling_deck(server, slug):
    cards = [
        {"title": "Sharp photo", "answer": "right"},
        {"title": "Blurry photo", "answer": "left"},
        {"title": "Unknown photo"},
    ]
    status, _, text = server.request("POST", "/api/v1/decks", {"slug": slug, "title": "Labels", "cards": cards}, OWNER)
    assert status == 201, text
    # Every card dealt is a known-answer one while there are any (share 1), in the listed order.
    status, _, text = server.request(
        "PATCH", f"/api/v1/decks/{slug}", {"quality": {"mode": "feedback", "knownShare": 1}}, OWNER)
    assert status == 200, text


def drag_right(page, rng):
    box = top_box(page)
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.45
    Mouse(page).drag(x0, y0, box["width"] * 0.6, 14, duration_ms=420, moves=26, rng=rng)


def toast(page):
    return page.inner_text(".toast")


def test_feedback_mode_says_right_or_wrong_after_a_drag(server, desktop):
    page = desktop
    labelling_deck(server, "labels")
    rng = random.Random(29)
    first = open_deck(page, server, "labels")
    assert page.inner_text(f'#stack [data-card="{first}"] .card-title') == "Sharp photo"
    drag_right(page, rng)
    second = wait_thrown(page, first)
    page.wait_for_function("() => document.querySelector('.toast').textContent === 'Correct: LIKE.'")
    assert page.get_attribute(".toast", "aria-live") == "polite"
    assert page.inner_text(f'#stack [data-card="{second}"] .card-title') == "Blurry photo"
    drag_right(page, rng)
    third = wait_thrown(page, second)
    page.wait_for_function(
        "() => document.querySelector('.toast').textContent === 'Not quite: the answer was NOPE.'")
    rows = wait_swipes(server, 2)
    assert [r["direction"] for r in rows] == ["right", "right"]
    assert all(r["input"] == "drag" for r in rows)
    # An ordinary card: the 201 carries no feedback, and the last message clears by itself.
    page.wait_for_function("() => document.querySelector('.toast').textContent === ''", timeout=6000)
    drag_right(page, rng)
    wait_swipes(server, 3)
    page.wait_for_timeout(800)
    assert toast(page) == ""
    assert third


def test_the_owner_results_page_never_scrolls_sideways_on_a_phone(server, phone):
    """A deck with a stop rule and known-answer cards, swiped by a few people: its results page (ranked table
    with verdicts, the agreement and known-answers table) fits a 390 px phone; wide tables scroll in place."""
    labelling_deck(server, "labels")
    status, _, text = server.request("PATCH", "/api/v1/decks/labels", {
        "stopRule": {"kind": "threshold", "threshold": 0.5, "errorRate": 0.05, "votesCap": 400}}, OWNER)
    assert status == 200, text
    rng = random.Random(6)
    for who in ("ana", "ben", "cy"):
        for card in card_ids(server, "labels"):
            body = swipe_body(card, who, rng.choice(["left", "right"]), rng=rng)
            status, _, answer = server.request("POST", "/api/v1/decks/labels/swipes", body)
            assert status == 201, answer
    add_owner(server, "dora")
    sign_in(phone, server, "dora")
    phone.goto(f"{server.base}/d/labels/results")
    assert phone.is_visible(".quality-table")
    assert "needs about" in phone.inner_text(".ranked")
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    # The verdict reads as words on a line, not one word per line.
    verdict = phone.locator(".ranked .verdict").first.bounding_box()
    assert verdict["height"] < 3 * 20, verdict


def toast_below_the_heading(page, server, slug):
    open_deck(page, server, slug)
    page.click(".ctl-like")
    page.wait_for_function("() => document.querySelector('.toast').textContent === 'Correct: LIKE.'")
    toast_box = page.locator(".toast").bounding_box()
    head = page.locator(".deck-head").bounding_box()
    assert toast_box["y"] >= head["y"] + head["height"], (toast_box, head)
    for selector in (".ctl-nope", ".ctl-like"):
        control = page.locator(selector).bounding_box()
        assert toast_box["y"] + toast_box["height"] <= control["y"], (toast_box, control)


def test_the_toast_does_not_cover_the_deck_title_on_a_phone(server, phone):
    labelling_deck(server, "labels")
    toast_below_the_heading(phone, server, "labels")


def test_the_toast_does_not_cover_the_deck_title_on_a_desktop(server, desktop):
    labelling_deck(server, "labels")
    toast_below_the_heading(desktop, server, "labels")
