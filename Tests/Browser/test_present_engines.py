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
from testenv import ADMIN_TOKEN


ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


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


def join_column_fits(screen, what):
    """The join column (the locked line, QR code, address, code, link) stays between the title and the controls."""
    box = screen.evaluate("""() => {
        const parts = [...document.querySelectorAll('.present-join > *')].filter((e) => e.getClientRects().length)
            .map((e) => e.getBoundingClientRect());
        return {head: document.querySelector('.present-head').getBoundingClientRect().bottom,
                controls: document.querySelector('.present-controls').getBoundingClientRect().top,
                top: Math.min(...parts.map((r) => r.top)), bottom: Math.max(...parts.map((r) => r.bottom))};
    }""")
    assert box["top"] >= box["head"] - 1 and box["bottom"] <= box["controls"] + 1, (what, box)


def pressed(remote, action, words, what):
    """Presses the remote's button `action` with a tap or click, and waits for its state line to say `words`."""
    remote.click(f".remote button[value={action}]")
    remote.wait_for("(words) => document.querySelector('.remote').textContent.includes(words)", words, what=what)


def test_a_live_session_in_each_engine_a_presenter_link_a_remote_and_three_phones(server, engine):
    """The whole live session (issue 36's "Done when") in one engine: the owner makes a presenter link;
    a colleague opens it on a 1920×1080 screen and its remote on a phone (both in the engine, cookies of
    their own), three phones type the screen's code and join; the remote paces the room card by card,
    every phone decides the presenter's card (a drag, a key, a tap), the remote locks and unlocks
    voting, reveals the results (every phone says so), and the last card's third vote decides the deck,
    whose stop rule closes it by itself: the screen says "Decided", every phone is closed. Revoked, the
    link's screen says so. The screen is kept: artifacts/screenshots/present-session-{engine}.png."""
    add_owner(server, "pia")
    owner = Presenter(server.base, "pia", PASSWORD)
    owner.screen()
    # Three cards, each settled by three votes; the deck closes itself once all are.
    ids = [row["id"] for row in server.request("GET", "/api/v1/decks/getaways/cards?limit=100")[2]["cards"]]
    for card in ids[3:]:
        assert server.request("POST", f"/api/v1/decks/getaways/cards/{card}/archive", None, ADMIN)[0] == 200
    status, _, body = server.request("PATCH", "/api/v1/decks/getaways", {
        "stopRule": {"kind": "votes", "votes": 3, "closeWhenDecided": True}}, ADMIN)
    assert status == 200, body
    screen_link, remote_link = owner.presenter_link("make")
    assert "key=" in screen_link and "key=" in remote_link

    people = []
    try:
        screen = engine.new_person({"width": 1920, "height": 1080})
        people.append(screen)
        screen.goto(screen_link)
        screen.wait_for("() => location.pathname === '/d/getaways/present' && !location.search",
                        what="the big screen, its key out of the address")
        code = screen.evaluate("() => document.querySelector('.present-code').lastChild.textContent")
        assert not screen.evaluate("() => [...document.querySelectorAll('a')].some((a) => a.textContent === 'Back to the deck')")
        remote = engine.new_person(PHONE, touch=True)
        people.append(remote)
        remote.goto(remote_link)
        remote.wait_for("() => location.pathname === '/d/getaways/present/remote'", what="the remote")
        phones = [engine.new_person(PHONE, touch=True) for _ in range(3)]
        people.extend(phones)
        for phone in phones:
            join(phone, server, code)
        screen.wait_for("() => document.querySelector('[data-stat=people]').textContent === '0 people'",
                        what="the screen's count before any vote")

        pressed(remote, "hostPaced", "Show the first card", "the remote pacing the room")
        for phone in phones:
            waiting(phone, "The presenter starts soon.", "a phone waiting for the first card")
        for step, card in enumerate(ids[:3]):
            pressed(remote, "next", f"Card {step + 1} of 3", f"the remote on card {step + 1}")
            for phone in phones:
                shows_only(phone, card, f"card {step + 1} on every phone")
            if step == 0:
                join_column_fits(screen, "host-paced, open")
            if step == 1:
                # Locked, no phone takes a decision; unlocked, they all do again.
                pressed(remote, "lock", "Voting is locked", "the remote locking")
                for phone in phones:
                    stack_state(phone, "closed", "a phone closed by the remote's Lock")
                screen.wait_for("() => document.querySelector('.present-state').textContent.startsWith('Voting is locked')",
                                what="the screen locked")
                pressed(remote, "unlock", "Voting is open", "the remote unlocking")
                for phone in phones:
                    shows_only(phone, card, "the card again after the Unlock")
            if step == 2:
                pressed(remote, "reveal", "results shown", "the remote revealing")
                for phone in phones:
                    phone.wait_for("() => document.querySelector('.stage-words').textContent === 'The results are on the big screen.'",
                                   what="a phone told of the Reveal")
            # A drag on the first phone, the → key on the second, a tap on ♥ (✕ on the last card) on the third.
            first = phones[0]
            box, x0, y0 = card_centre_of(first)
            reach = min(box["width"] * 0.55, PHONE["width"] - 4 - x0)
            first.gesture("touch" if first.supports_touch else "mouse", x0, y0,
                          drag_points(x0, y0, reach, 10, 360, 20, rng=random.Random(step)))
            phones[1].press("ArrowRight")
            phones[2].click(".ctl-nope" if step == 2 else ".ctl-like")
            if step < 2:
                for phone in phones:
                    waiting(phone, "Thank you! The next card", "a phone that decided the card")
                screen.wait_for("(n) => document.querySelector('[data-stat=decision]').textContent.startsWith(n + ' of 3')",
                                str(step + 1), what="the screen counting the decided card")
        # The third vote on the last card decides the deck: it closes by itself, on the screen and every phone.
        screen.wait_for("() => (document.querySelector('.present-locked') || {}).textContent === 'Decided · voting is closed'",
                        timeout=15, what="the screen saying the deck decided itself")
        for phone in phones:
            stack_state(phone, "closed", "a phone closed by the stop rule")
        assert server.request("GET", "/api/v1/decks/getaways", None, ADMIN)[2]["open"] is False
        assert len(swipes(server)) == 9
        shares = screen.evaluate("() => [...document.querySelectorAll('.present-share')].map((e) => e.textContent)")
        assert sorted(shares) == ["100%", "100%", "67%"], shares
        join_column_fits(screen, "decided, closed")
        SHOTS.mkdir(parents=True, exist_ok=True)
        screen.screenshot(str(SHOTS / f"present-session-{screen.engine}.png"))

        # Revoked, the link's screen stops at its next ask and says why.
        assert owner.presenter_link("revoke") == (None, None)
        screen.wait_for("""() => document.querySelector('.present-ended')?.textContent.startsWith(
            'This presenter link no longer works') && !document.querySelector('.present, .error-page')""", timeout=15,
                        what="the screen told calmly that the link was revoked")
        remote.wait_for("() => !!document.querySelector('.present-ended')", timeout=15, what="the remote told too")
    finally:
        for page in people:
            page.close()
