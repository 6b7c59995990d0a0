"""Seed 001's 3D screen transition (issue 17, item 4): opening a card's detail view turns the card into
the detail page with a cross-document view transition, and back; none under reduced motion."""
import re

import pytest

from deckkit import TOP, open_deck

# Installed in every document before its scripts: what the page's `pagereveal` says of the transition
# into it. The turn's animations are read when the transition is ready (both halves exist then, the
# incoming one still in its delay), not timed from outside, so a slow machine gives the same answer.
RECORD_TURN = """
addEventListener('pagereveal', (event) => {
  const transition = event.viewTransition;
  if (!transition) {
    window.turnRecord = { outcome: 'none', names: [] };
    return;
  }
  const record = { outcome: 'pending', names: [] };
  window.turnRecord = record;
  transition.ready.then(() => {
    const animations = document.getAnimations();
    const names = animations.map((animation) => animation.animationName || '');
    record.names = names.filter((name) => name.startsWith('card-turn'));
  }, () => {
    record.outcome = 'skipped';
  });
  transition.finished.then(() => {
    if (record.outcome === 'pending') {
      record.outcome = 'finished';
    }
  });
});
"""


def turn_into(page, navigate):
    """Runs `navigate()` and returns what the next page recorded of the transition into it, once it has
    ended: {'outcome': 'none' | 'skipped' | 'finished', 'names': the card-turn animations it ran}."""
    navigate()
    # Polled from here: the page's CSP (script-src 'self') refuses wait_for_function's string evaluation.
    for _ in range(150):
        record = page.evaluate("window.turnRecord")
        if record and record["outcome"] != "pending":
            return record
        page.wait_for_timeout(100)
    return record


@pytest.mark.parametrize("reduced_motion", ["no-preference", "reduce"])
def test_card_turns_into_its_detail_and_back(server, chromium, reduced_motion):
    context = chromium.new_context(viewport={"width": 390, "height": 844}, reduced_motion=reduced_motion)
    try:
        context.add_init_script(RECORD_TURN)
        page = context.new_page()
        first = open_deck(page, server)
        page.wait_for_selector(".deck-page[data-ready]")

        def open_detail():
            page.click(f"{TOP} .card-link")
            page.wait_for_url(re.compile(rf"/d/getaways/cards/{first}$"))

        def back_to_stack():
            page.click(".back-to-stack")
            page.wait_for_url(re.compile(r"/d/getaways(#card-\d+)?$"))

        forward = turn_into(page, open_detail)
        back = turn_into(page, back_to_stack)
        if reduced_motion == "reduce":
            assert forward == {"outcome": "none", "names": []}, forward
            assert back == {"outcome": "none", "names": []}, back
        else:
            turned = {"outcome": "finished", "names": ["card-turn-away", "card-turn-in"]}
            assert {**forward, "names": sorted(forward["names"])} == turned, forward
            assert {**back, "names": sorted(back["names"])} == turned, back
        # Either way the deck is back, with the same card on top.
        page.wait_for_selector(TOP)
        assert page.eval_on_selector(TOP, "e => e.dataset.card") == first
    finally:
        context.close()
