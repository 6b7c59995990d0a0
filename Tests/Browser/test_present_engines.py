"""The big screen with a phone in each engine (issue 36): Chromium, WebKit and Firefox. The presenter's
screen and presses are HTTP here (its page is test_present.py's, in Chromium: one Playwright per
thread); a phone of the engine
(390×844, touch where the engine's driver has it) types the screen's join code at /j in lower case,
presses Enter, and likes the top card with a real drag; the screen counts it. Then the phone follows
the presenter by itself, through its stage stream: Lock closes its page, Unlock opens it again, and
Reveal shows "The results are on the big screen." with the way to its picks beside the room's, where
the room's share stands beside the card it liked. Screenshots: artifacts/screenshots/present-phone-{engine}.png."""
import random
import re

from deckkit import PHONE, SHOTS, poll, swipes
from engines import drag_points
from enginekit import card_centre_of, top_card, wait_thrown
from presenter import Presenter
from test_owner_console import PASSWORD, add_owner
from test_rooms import click, type_text, wait_ready


def stack_state(page, state, what):
    page.wait_for("(s) => document.querySelector('.deck-page').dataset.state === s", state, what=what)


def test_a_phone_in_each_engine_joins_by_code_and_follows_the_big_screen(server, engine):
    add_owner(server, "pia")
    presenter = Presenter(server.base, "pia", PASSWORD)
    phone = engine.new_page(viewport=PHONE, touch=True)
    try:
        screen = presenter.screen()
        code = re.search(r'<p class="present-code"><span class="sr-only">Join code: </span>(\w+)<', screen).group(1)
        phone.goto(server.base + "/j")
        type_text(phone, "#join-code", code.lower())
        phone.press("Enter")
        phone.wait_for("() => location.pathname === '/d/getaways'", what="the deck's page after the code")
        wait_ready(phone, "the deck page")
        card = top_card(phone)
        box, x0, y0 = card_centre_of(phone)
        kind = "touch" if phone.supports_touch else "mouse"
        # Past the like threshold, and inside the screen (Firefox refuses a pointer off the viewport).
        reach = min(box["width"] * 0.55, PHONE["width"] - 4 - x0)
        phone.gesture(kind, x0, y0, drag_points(x0, y0, reach, 10, 360, 20, rng=random.Random(36)))
        wait_thrown(phone, card)
        poll(lambda: len(swipes(server)) == 1, timeout=10, what="the phone's swipe stored")
        assert '<b data-stat="people">1 person</b>' in presenter.screen()

        presenter.press("lock")
        stack_state(phone, "closed", "the phone closed by the Lock")
        assert phone.evaluate("() => !document.querySelector('.state-closed').hidden")
        presenter.press("unlock")
        stack_state(phone, "open", "the phone open again after the Unlock")
        presenter.press("reveal")
        phone.wait_for("""() => document.querySelector('.stage-words').textContent
            === 'The results are on the big screen.' && !document.querySelector('.stage-room').hidden""",
                       what="the phone told of the Reveal")
        SHOTS.mkdir(parents=True, exist_ok=True)
        phone.screenshot(str(SHOTS / f"present-phone-{phone.engine}.png"))
        click(phone, ".stage-room")
        phone.wait_for("() => location.pathname === '/d/getaways/history'", what="the phone's picks")
        assert "The room: 100% LIKE · 1 vote" in phone.text(".row"), phone.text(".row")
    finally:
        phone.close()
