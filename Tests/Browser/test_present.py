"""The big screen (issue 36, its first parts) in Chromium, as a presenter and a hall use it: the owner
signs in by typing, opens /d/{deck}/present on a 1920×1080 projector; a phone types the join code at
/j (lower case, Enter) and lands on the deck; its swipe shows on the screen within seconds, counts
only; "Reveal results" shows the share; "Lock voting" closes the deck, and the phone's next swipe is
refused and its page says the deck is closed; "Unlock voting" opens it again. A deck whose stop rule
closes it once decided (ticked in its settings, Enter to save) closes the moment the last card is
decided, and the screen says so by itself. The page fits
1920×1080 and 1280×720 without scrolling, with a QR code a back row can scan; screenshots are kept
(artifacts/screenshots/present-*.png)."""
import random
import sys

from deckkit import PHONE, ROOT, SHOTS, open_deck, poll, swipes, top_card, wait_thrown
from test_owner_console import add_owner
from test_owner_editor import sign_in_typing, type_into
from testenv import ADMIN_TOKEN

# The system suites' human-shaped drags (their folder is on the path only when they are collected too).
sys.path.insert(0, str(ROOT / "Tests" / "System"))
from sd_helpers import card_ids, swipe_body  # noqa: E402

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def screen_fits(page):
    """The page's size beside the viewport's, and the QR code's and the join code's boxes."""
    return page.evaluate("""() => ({
        scrollWidth: document.documentElement.scrollWidth, scrollHeight: document.documentElement.scrollHeight,
        width: innerWidth, height: innerHeight,
        qr: document.querySelector('.present-qr svg').getBoundingClientRect().width,
        code: parseFloat(getComputedStyle(document.querySelector('.present-code')).fontSize),
        controls: document.querySelector('.present-controls').getBoundingClientRect().bottom })""")


def join_code(page):
    """The join code as the screen shows it (after its label for screen readers)."""
    return page.eval_on_selector(".present-code", "e => e.lastChild.textContent")


def presenter(server, chromium, **options):
    """A 1920×1080 context with the owner "pia" signed in by typing: (context, page, the page's errors)."""
    add_owner(server, "pia")
    ctx = chromium.new_context(viewport={"width": 1920, "height": 1080}, **options)
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in_typing(page, server, "pia")
    return ctx, page, errors


def test_a_presenter_shows_the_room_how_to_join_reveals_and_locks(server, chromium):
    screen_ctx, screen, errors = presenter(server, chromium)
    phone_ctx = chromium.new_context(viewport=PHONE, has_touch=True)
    try:
        screen.goto(server.base + "/d/getaways/present")
        code = join_code(screen)
        assert len(code) == 6, code
        assert screen.locator(".present-address").inner_text() == server.base.split("://")[1] + "/j"
        fits = screen_fits(screen)
        # The whole screen without scrolling; a QR code of 400 px and more, a code in 80 px letters.
        assert fits["scrollWidth"] <= fits["width"] and fits["scrollHeight"] <= fits["height"], fits
        assert fits["qr"] >= 400 and fits["code"] >= 80 and fits["controls"] <= fits["height"], fits
        assert screen.locator("[data-stat=people]").inner_text() == "0 people"

        # A person in the hall types the code, in lower case, and presses Enter.
        phone = phone_ctx.new_page()
        phone.goto(server.base + "/j")
        type_into(phone, "The code on the screen", code.lower()).press("Enter")
        phone.wait_for_url(server.base + "/d/getaways")
        phone.wait_for_function("() => document.documentElement.classList.contains('js') && !!document.querySelector('#stack .card')")
        first = top_card(phone)
        phone.click(".ctl-like")
        wait_thrown(phone, first)
        poll(lambda: len(swipes(server)) == 1, timeout=10, what="the phone's swipe stored")
        # The screen counts it by itself (the live results: at most a second after the write).
        screen.wait_for_function(
            "() => document.querySelector('[data-stat=people]').textContent === '1 person'"
            " && document.querySelector('[data-stat=decisions]').textContent === '1 decision'", timeout=10_000)
        assert screen.locator(".present-share").all_inner_texts() == [""] * screen.locator(".present-card").count()
        SHOTS.mkdir(parents=True, exist_ok=True)
        screen.screenshot(path=str(SHOTS / "present-1920-hidden.png"))

        # Pressed in place (the screen is swapped for the one the server answers: full screen stays).
        screen.get_by_role("button", name="Reveal results").click()
        screen.wait_for_selector('.present[data-revealed="true"]', timeout=10_000)
        assert screen.url == server.base + "/d/getaways/present"
        liked = screen.locator(f'.present-card[data-card="{first}"]')
        assert liked.locator(".present-share").inner_text() == "100%"
        assert screen.locator(".present-card").first.get_attribute("data-card") == first, "ranked: the liked card first"
        screen.screenshot(path=str(SHOTS / "present-1920-revealed.png"))

        # The projector's own window, the same session: it follows what the laptop's window does.
        projector = screen_ctx.new_page()
        projector.goto(server.base + "/d/getaways/present")
        screen.get_by_role("button", name="Lock voting").click()
        screen.wait_for_selector('.present[data-open="false"]', timeout=10_000)
        projector.wait_for_selector(".present-locked", timeout=10_000)
        assert "Voting is locked" in screen.locator(".present-state").inner_text()
        assert screen.locator(".present-locked").inner_text() == "Voting is closed"
        screen.screenshot(path=str(SHOTS / "present-1920-locked.png"))
        # The phone hears the Lock by itself (its stage stream): closed without a swipe or a reload.
        phone.wait_for_function("() => document.querySelector('.deck-page').dataset.state === 'closed'",
                                timeout=10_000)
        assert phone.locator(".state-closed").is_visible()
        assert phone.locator(".ctl-like").is_disabled()
        # A swipe that was on its way is refused all the same (a decision posted as the Lock came).
        status, _, body = server.request(
            "POST", "/api/v1/decks/getaways/swipes", swipe_body(int(top_card(phone)), "late", rng=random.Random(3)))
        assert status == 409 and body["error"]["code"] == "deck_closed", body
        assert len(swipes(server)) == 1, "a locked deck took a decision"

        screen.get_by_role("button", name="Unlock voting").click()
        screen.wait_for_selector('.present[data-open="true"]', timeout=10_000)
        projector.wait_for_selector(".present-locked", state="detached", timeout=10_000)
        assert "Voting is open" in screen.locator(".present-state").inner_text()
        # And the Unlock: the same page takes decisions again.
        phone.wait_for_function("() => document.querySelector('.deck-page').dataset.state === 'open'",
                                timeout=10_000)
        third = top_card(phone)
        phone.click(".ctl-like")
        wait_thrown(phone, third)
        poll(lambda: len(swipes(server)) == 2, timeout=10, what="the swipe after Unlock stored")

        # A 1280×720 projector: the same page, still without scrolling.
        screen.set_viewport_size({"width": 1280, "height": 720})
        fits = screen_fits(screen)
        assert fits["scrollWidth"] <= fits["width"] and fits["scrollHeight"] <= fits["height"], fits
        assert fits["qr"] >= 260 and fits["controls"] <= fits["height"], fits
        screen.screenshot(path=str(SHOTS / "present-1280.png"))
        assert not errors, errors
    finally:
        screen_ctx.close()
        phone_ctx.close()


def test_without_scripts_the_screen_shows_how_to_join(server, chromium):
    """The join instructions and the QR code are in the served page: no script needed to read them."""
    ctx, page, _ = presenter(server, chromium, java_script_enabled=False)
    try:
        page.goto(server.base + "/d/getaways/present")
        assert len(join_code(page)) == 6
        assert page.locator(".present-qr svg").is_visible()
        assert "and type" in page.locator(".present-how").inner_text()
    finally:
        ctx.close()


def test_a_deck_that_closes_itself_once_decided_says_so_on_the_screen(server, chromium):
    ctx, page, errors = presenter(server, chromium)
    try:
        page.goto(server.base + "/owner/decks/getaways")
        settings = page.locator("#settings")
        settings.locator("summary").click()
        settings.get_by_label("Settled at a number of votes").check()
        settings.get_by_label("Close the deck by itself once it is decided").check()
        type_into(page, "Votes that settle a card", "1")
        with page.expect_navigation(url="**/owner/decks/getaways?saved=1"):
            page.keyboard.press("Enter")
        rule = server.request("GET", "/api/v1/decks/getaways", headers=ADMIN)[2]["stopRule"]
        assert rule["kind"] == "votes" and rule["votes"] == 1 and rule["closeWhenDecided"] is True, rule

        page.goto(server.base + "/d/getaways/present")
        ids = card_ids(server)
        assert page.locator("[data-stat=decision]").inner_text() == f"0 of {len(ids)} cards decided."
        rng = random.Random(36)
        for n, card in enumerate(ids):
            status, _, body = server.request("POST", "/api/v1/decks/getaways/swipes", swipe_body(card, f"v{n}", rng=rng))
            assert status == 201, body
        # The screen sees the deck decided, and is served again: locked.
        poll(lambda: "Voting is locked" in page.locator(".present-state").inner_text(), timeout=10,
             what="the screen locked by the decision")
        assert page.locator("[data-stat=decision]").inner_text() == f"{len(ids)} of {len(ids)} cards decided."
        assert server.request("GET", "/api/v1/decks/getaways", headers=ADMIN)[2]["open"] is False
        status, _, body = server.request("POST", "/api/v1/decks/getaways/swipes", swipe_body(ids[0], "late", rng=rng))
        assert status == 409 and body["error"]["code"] == "deck_closed", body
        page.screenshot(path=str(SHOTS / "present-1920-decided.png"))
        assert not errors, errors
    finally:
        ctx.close()


def test_a_phone_remote_drives_the_room_and_every_phone_follows(server, chromium):
    """The presenter's phone remote (signed in by typing, tapped with a thumb) locks and unlocks the
    deck and starts a reveal timer; a swiper's phone follows each change by itself, counts the timer
    down, and once the results show, opens its picks beside the room's; the big screen follows too."""
    screen_ctx, screen, errors = presenter(server, chromium)
    remote_ctx = chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    phone_ctx = chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        screen.goto(server.base + "/d/getaways/present")
        remote = remote_ctx.new_page()
        remote.on("pageerror", lambda e: errors.append(str(e)))
        sign_in_typing(remote, server, "pia")
        remote.goto(server.base + "/d/getaways/present/remote")
        assert "Voting is open · results hidden" in remote.locator(".remote-state").inner_text()
        SHOTS.mkdir(parents=True, exist_ok=True)
        remote.screenshot(path=str(SHOTS / "present-remote.png"))
        for name in ("Reveal results", "Start the timer", "Lock voting"):
            box = remote.get_by_role("button", name=name).bounding_box()
            assert box["height"] >= 44 and box["width"] >= 200, (name, box)

        phone = phone_ctx.new_page()
        phone.on("pageerror", lambda e: errors.append(str(e)))
        first = open_deck(phone, server)
        phone.locator(".ctl-like").tap()
        wait_thrown(phone, first)
        poll(lambda: len(swipes(server)) == 1, timeout=10, what="the phone's swipe stored")

        remote.get_by_role("button", name="Lock voting").tap()
        remote.wait_for_selector('.remote[data-open="false"]', timeout=10_000)
        assert "Voting is locked" in remote.locator(".remote-state").inner_text()
        phone.wait_for_function("() => document.querySelector('.deck-page').dataset.state === 'closed'",
                                timeout=10_000)
        poll(lambda: "Voting is locked" in screen.locator(".present-state").inner_text(), timeout=10,
             what="the big screen following the remote's Lock")
        remote.get_by_role("button", name="Unlock voting").tap()
        remote.wait_for_selector('.remote[data-open="true"]', timeout=10_000)
        phone.wait_for_function("() => document.querySelector('.deck-page').dataset.state === 'open'",
                                timeout=10_000)

        # A 15 s timer: the phone counts it down, then the results show everywhere by themselves.
        remote.get_by_label("or reveal in").select_option("15")
        remote.get_by_role("button", name="Start the timer").tap()
        remote.wait_for_selector(".remote .present-countdown", timeout=10_000)
        assert remote.get_by_role("button", name="Cancel the timer").is_visible()
        banner = phone.locator(".stage-banner")
        banner.locator(".stage-words").filter(has_text="The results show in").wait_for(timeout=10_000)
        assert banner.locator(".stage-room").is_hidden()
        phone.screenshot(path=str(SHOTS / "present-phone-timer.png"))
        banner.locator(".stage-words").filter(has_text="The results are on the big screen.").wait_for(timeout=30_000)
        poll(lambda: screen.locator(".present").get_attribute("data-revealed") == "true", timeout=10,
             what="the big screen revealed by the timer")
        phone.screenshot(path=str(SHOTS / "present-phone-revealed.png"))
        # The screen's keys: C hides the counts (kept on reload), L locks as the button does.
        screen.keyboard.press("c")
        assert screen.locator(".present.counts-hidden").count() == 1
        assert screen.locator("[data-stat=people]").is_hidden()
        screen.reload()
        assert screen.locator(".present.counts-hidden").count() == 1
        screen.keyboard.press("l")
        screen.wait_for_selector('.present[data-open="false"]', timeout=10_000)
        # F fills the screen, and a press after it leaves it full (the screen is swapped, not reloaded).
        screen.keyboard.press("f")
        poll(lambda: screen.evaluate("() => !!document.fullscreenElement"), timeout=5, what="full screen after F")
        screen.keyboard.press("l")
        screen.wait_for_selector('.present[data-open="true"]', timeout=10_000)
        assert screen.evaluate("() => !!document.fullscreenElement"), "Unlock left full screen"
        screen.keyboard.press("l")
        screen.wait_for_selector('.present[data-open="false"]', timeout=10_000)
        assert "Voting is locked" in screen.locator(".present-state").inner_text()
        phone.wait_for_function("() => document.querySelector('.deck-page').dataset.state === 'closed'",
                                timeout=10_000)
        banner.get_by_role("link", name="See your picks beside the room's").tap()
        phone.wait_for_url(server.base + "/d/getaways/history")
        row = phone.locator(".row").first
        assert "The room: 100% LIKE · 1 vote" in row.inner_text(), row.inner_text()
        assert not errors, errors
    finally:
        screen_ctx.close()
        remote_ctx.close()
        phone_ctx.close()
