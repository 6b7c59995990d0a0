"""Seed 001's 3D screen transition (issue 17, item 4): opening a card's detail view turns the card into
the detail page with a cross-document view transition, and back; none under reduced motion."""
import re

import pytest

from deckkit import TOP, open_deck


def turn_animations(page, navigate, expected):
    """Names of the CSS animations that start while `navigate()` runs and the next page settles:
    900 ms (the transition's length, so the next navigation starts after it), longer while fewer
    than `expected` have started (a slow machine starts the incoming half later), at most 6 s."""
    cdp = page.context.new_cdp_session(page)
    names = []
    cdp.on("Animation.animationStarted", lambda event: names.append(event["animation"].get("name")))
    cdp.send("Animation.enable")
    navigate()

    def turns():
        return [name for name in names if name.startswith("card-turn")]

    # Events arrive while Playwright waits (wait_for_timeout), not during time.sleep.
    page.wait_for_timeout(900)
    for _ in range(51):
        if len(turns()) >= expected:
            break
        page.wait_for_timeout(100)
    return turns()


@pytest.mark.parametrize("reduced_motion", ["no-preference", "reduce"])
def test_card_turns_into_its_detail_and_back(server, chromium, reduced_motion):
    context = chromium.new_context(viewport={"width": 390, "height": 844}, reduced_motion=reduced_motion)
    try:
        page = context.new_page()
        first = open_deck(page, server)
        page.wait_for_selector(".deck-page[data-ready]")

        def open_detail():
            page.click(f"{TOP} .card-link")
            page.wait_for_url(re.compile(rf"/d/getaways/cards/{first}$"))

        def back_to_stack():
            page.click(".back-to-stack")
            page.wait_for_url(re.compile(r"/d/getaways(#card-\d+)?$"))

        expected = 0 if reduced_motion == "reduce" else 2
        forward = turn_animations(page, open_detail, expected)
        back = turn_animations(page, back_to_stack, expected)
        if reduced_motion == "reduce":
            assert forward == [] and back == [], (forward, back)
        else:
            assert sorted(forward) == ["card-turn-away", "card-turn-in"], forward
            assert sorted(back) == ["card-turn-away", "card-turn-in"], back
        # Either way the deck is back, with the same card on top.
        page.wait_for_selector(TOP)
        assert page.eval_on_selector(TOP, "e => e.dataset.card") == first
    finally:
        context.close()
