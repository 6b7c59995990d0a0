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


def join(phone, server, code):
    """A phone types the screen's code at /j, presses Enter and waits for the deck's page."""
    phone.goto(server.base + "/j")
    type_text(phone, "#join-code", code.lower())
    phone.press("Enter")
    phone.wait_for("() => location.pathname === '/d/getaways'", what="the deck's page after the code")
    phone.wait_for("() => document.querySelector('.deck-page').dataset.ready === 'true'", what="the deck page")


def shows_only(phone, card, what):
    """The phone's stack holds the presenter's card `card` alone, and takes decisions."""
    phone.wait_for("""(id) => document.querySelector('.deck-page').dataset.state === 'open'
        && [...document.querySelectorAll('#stack .card:not(.leaving)')].map((c) => c.dataset.card).join() === id""",
                   str(card), what=what)


def waiting(phone, words, what, timeout=10.0):
    """The phone has no card to decide and says why."""
    phone.wait_for("""(words) => document.querySelector('.deck-page').dataset.state === 'waiting'
        && !document.querySelector('.state-waiting').hidden
        && document.querySelector('.waiting-words').textContent.startsWith(words)""", words, timeout=timeout,
                   what=what)


def test_host_paced_phones_in_each_engine_follow_the_presenter_card_by_card(server, engine):
    """Host-paced (issue 36 item 4): the presenter paces the deck; phones that joined by the code wait
    for the first card, each shows only the presenter's card (a drag, an arrow key and a tap decide it),
    a decided card leaves for "Thank you", Next brings the next card to every phone, a card timer takes
    an undecided card away ("Time is up"), and past the last card every phone says so. Three phones in
    Chromium and Firefox (each with its own cookies); WebKit's driver holds one page, so one there."""
    add_owner(server, "pia")
    presenter = Presenter(server.base, "pia", PASSWORD)
    screen = presenter.screen()
    code = re.search(r'<p class="present-code"><span class="sr-only">Join code: </span>(\w+)<', screen).group(1)
    presenter.press("hostPaced")
    first = engine.new_page(viewport=PHONE, touch=True)
    phones = [first] + ([] if first.engine == "webkit" else [engine.new_page(viewport=PHONE, touch=True)
                                                              for _ in range(2)])
    try:
        for phone in phones:
            join(phone, server, code)
            waiting(phone, "The presenter starts soon.", "a phone waiting for the first card")
        presenter.press("next")
        card = presenter.state()["card"]
        for phone in phones:
            shows_only(phone, card, "the first card on every phone")
        # A drag on the first phone, the → key on the second, a tap on ♥ on the third.
        box, x0, y0 = card_centre_of(first)
        kind = "touch" if first.supports_touch else "mouse"
        reach = min(box["width"] * 0.55, PHONE["width"] - 4 - x0)
        first.gesture(kind, x0, y0, drag_points(x0, y0, reach, 10, 360, 20, rng=random.Random(4)))
        if len(phones) == 3:
            phones[1].press("ArrowRight")
            phones[2].click(".ctl-like")
        for phone in phones:
            waiting(phone, "Thank you! The next card", "a phone that decided the card")
        poll(lambda: len(swipes(server)) == len(phones), timeout=10, what="every phone's decision stored")
        assert {row["cardId"] for row in swipes(server)} == {card}

        # The next card, with a 10 s timer: the first phone decides it, the others let it run out.
        presenter.press("cardTimer", extra="&cardSeconds=10")
        presenter.press("next")
        second = presenter.state()["card"]
        assert second != card
        for phone in phones:
            shows_only(phone, second, "the second card on every phone")
        first.click(".ctl-nope")
        waiting(first, "Thank you! The next card", "the first phone after its pass")
        SHOTS.mkdir(parents=True, exist_ok=True)
        phones[-1].screenshot(str(SHOTS / f"present-paced-phone-{first.engine}.png"))
        for phone in phones[1:]:
            # The card's 10 s run from the Next press above.
            waiting(phone, "Time is up for this card.", "a phone whose card ran out of time", timeout=20)
        stored = len(phones) + 1
        poll(lambda: len(swipes(server)) == stored, timeout=10, what="the pass stored")

        # Past the last card: every phone says so, and nothing takes decisions.
        while presenter.state().get("card") is not None:
            presenter.press("next")
        for phone in phones:
            waiting(phone, "That was the last card.", "a phone past the last card")
        assert len(swipes(server)) == stored
    finally:
        for phone in phones:
            phone.close()
