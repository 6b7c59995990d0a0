"""Knowing when it is decided, in a real browser: the owner picks a stop rule in the deck's settings
(typing into the fields, Enter to save), watches the live results while people swipe, and sees each
card's state and then "Decided" without a reload; a swiper on an adaptive deck is no longer dealt the
cards already decided."""
import random
import sys
import time

from deckkit import DESKTOP, PHONE, ROOT, TOP, poll, wait_thrown
from test_owner_console import add_owner, sign_in
from testenv import ADMIN_TOKEN

# The system suites' human-shaped drags (their folder is on the path only when they are collected too).
sys.path.insert(0, str(ROOT / "Tests" / "System"))
from sd_helpers import swipe_body  # noqa: E402

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def cards_of(server, deck):
    status, _, body = server.request("GET", f"/api/v1/decks/{deck}/results", headers=ADMIN)
    assert status == 200, body
    return [c["cardId"] for c in body["cards"]]


def test_owner_sets_a_rule_and_watches_cards_and_the_deck_decide(server, chromium):
    add_owner(server, "dora")
    ctx = chromium.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in(page, server, "dora")

    page.goto(server.base + "/owner/decks/getaways")
    settings = page.locator("#settings")
    settings.locator("summary").click()
    settings.get_by_label("Settled at a number of votes").check()
    settings.get_by_label("Adaptive: the cards that most need votes first").check()
    votes = settings.get_by_label("Votes that settle a card")
    votes.click()
    page.keyboard.press("Control+A")
    page.keyboard.type("2")
    # Enter submits the form: the redirect to "saved" must land before the next page is opened.
    with page.expect_navigation(url="**/owner/decks/getaways?saved=1"):
        page.keyboard.press("Enter")
    poll(lambda: server.request("GET", "/api/v1/decks/getaways", headers=ADMIN)[2]["stopRule"]["kind"] == "votes",
         timeout=5, what="the rule saved by Enter")
    deck = server.request("GET", "/api/v1/decks/getaways", headers=ADMIN)[2]
    assert deck["stopRule"]["votes"] == 2 and deck["order"] == "adaptive"

    page.goto(server.base + "/d/getaways/results")
    poll(lambda: page.locator(".live-badge").is_visible(), what="the live badge")
    ids = cards_of(server, "getaways")
    assert page.locator(".decision").inner_text().strip() == f"Deciding: 0 of {len(ids)} cards decided."

    # Two people decide the first card: it is settled, live.
    rng = random.Random(29)
    for who in ("ann", "bob"):
        status, _, body = server.request("POST", "/api/v1/decks/getaways/swipes", swipe_body(ids[0], who, rng=rng))
        assert status == 201, body
    poll(lambda: "Settled" in page.locator("table.ranked").first.inner_text(), timeout=5, what="the card settled live")
    poll(lambda: page.locator(".decision").inner_text().strip() == f"Deciding: 1 of {len(ids)} cards decided.",
         timeout=5, what="the deck's progress live")

    # A swiper on the adaptive deck is not dealt the settled card.
    swiper = chromium.new_context(viewport=PHONE, has_touch=True).new_page()
    swiper.goto(server.base + "/d/getaways")
    swiper.wait_for_selector(TOP)
    dealt = swiper.eval_on_selector_all(".card[data-card]", "els => els.map(e => Number(e.dataset.card))")
    assert ids[0] not in dealt and dealt
    # Swiping on past the first page: the next pages (the adaptive order now) repeat cards the stack
    # holds, which it keeps once; every card dealt is a new one.
    seen = []
    for _ in range(10):
        top = swiper.eval_on_selector(TOP, "e => e.dataset.card")
        seen.append(int(top))
        swiper.click(".ctl-like")
        wait_thrown(swiper, top)
        time.sleep(0.35)  # a person's pace: three decisions within 0.6 s would not count
        held = swiper.eval_on_selector_all(".card[data-card]:not(.leaving)", "els => els.map(e => e.dataset.card)")
        assert len(held) == len(set(held)), held
    assert len(set(seen)) == len(seen) and ids[0] not in seen
    swiper.context.close()

    # One more vote on each card the swiper liked, two on the others (one swipe per person: three
    # swipes of one person within 0.6 s would be suspect and not count): the deck is decided.
    for n, card in enumerate(ids[1:]):
        voters = [f"voter-{n}-a"] if card in seen else [f"voter-{n}-a", f"voter-{n}-b"]
        for who in voters:
            status, _, body = server.request("POST", "/api/v1/decks/getaways/swipes", swipe_body(card, who, rng=rng))
            assert status == 201, body
    poll(lambda: page.locator(".decision").inner_text().strip()
         == f"Decided: every card has its verdict ({len(ids)} of {len(ids)} cards decided).",
         timeout=5, what="the deck decided live")
    assert "decided" in page.locator(".decision").get_attribute("class")
    assert server.sql("SELECT COUNT(*) FROM deckEvents WHERE kind = 'deck_decided'") == [("1",)]
    assert server.sql("SELECT COUNT(*) FROM deckEvents WHERE kind = 'card_decided'") == [(str(len(ids)),)]
    assert errors == []
    ctx.close()


def test_a_settled_cards_row_does_not_call_it_unsure(server, desktop):
    """Issue 39 D6: a card the stop rule settled on two split votes reads "between …%" and "Settled", never
    "too few votes to tell · Settled" (its interval is still wide): the verdict is the row's word, live and
    served."""
    status, _, text = server.request("PATCH", "/api/v1/decks/getaways", {"stopRule": {"kind": "votes", "votes": 2}},
                                     ADMIN)
    assert status == 200, text
    add_owner(server, "dora")
    sign_in(desktop, server, "dora")
    desktop.goto(server.base + "/d/getaways/results")
    poll(lambda: desktop.locator(".live-badge").is_visible(), what="the live badge")
    card = cards_of(server, "getaways")[0]
    rng = random.Random(39)
    for who, direction in (("ann", "right"), ("bob", "left")):
        status, _, body = server.request("POST", "/api/v1/decks/getaways/swipes", swipe_body(card, who, direction, rng=rng))
        assert status == 201, body
    settled = "table.ranked tr:has(.verdict[data-state=settled])"
    for how in ("live", "served"):
        if how == "served":
            desktop.reload()
        poll(lambda: desktop.locator(settled).count() == 1, timeout=5, what=f"the settled row ({how})")
        row = desktop.locator(settled).inner_text()
        assert "Settled" in row and "between" in row, row
        for word in ("too few votes to tell", "unsure", "fairly sure"):
            assert word not in row, f"{how}: {row!r}"
