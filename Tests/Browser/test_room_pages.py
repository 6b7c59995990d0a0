"""Match room pages in Chromium (issue 28): a wrong code refused next to the deck page's field, the room
page without JavaScript (start, join, swipe in the room; members and matches listed on reload), and the
room's states: full, no such room, finished without a match (the closest cards and a second round),
expired, and a non-member who sees only the join form."""
import sqlite3
import sys
from pathlib import Path

from deckkit import ADMIN_TOKEN, DESKTOP, TOP

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "System"))
from sd_helpers import card_ids, swipe_body  # noqa: E402


def test_a_wrong_code_is_refused_next_to_the_field(server, desktop):
    desktop.goto(f"{server.base}/d/getaways")
    desktop.wait_for_selector(".together[data-ready=true]")
    desktop.click(".together-join summary")
    desktop.click("#room-join-code")
    desktop.keyboard.type("K7M2Q0")
    desktop.keyboard.press("Enter")
    assert "no 0, 1, I, L or O" in desktop.inner_text("#room-join-error")
    desktop.fill("#room-join-code", "")
    # Z is the deck's undo key and arrows swipe: in the field they are just typing.
    desktop.keyboard.type("zzz zzz")
    assert desktop.input_value("#room-join-code") == "zzz zzz"
    desktop.keyboard.press("Enter")
    desktop.wait_for_function("() => document.querySelector('#room-join-error').textContent.includes('No room')")
    assert desktop.url.endswith("/d/getaways")


def test_tabbing_through_the_start_form_keeps_the_rule_and_a_click_into_a_number_picks_it(server, desktop):
    """Issue 39 K1: a keyboard user who only tabs through "Decide together" starts a room with the default
    rule (focus alone changes no choice); a click into a number field picks its rule."""
    desktop.goto(f"{server.base}/d/getaways")
    desktop.wait_for_selector(".together[data-ready=true]")
    desktop.click(".together-start summary")
    desktop.wait_for_function("() => document.activeElement?.id === 'room-name'")
    visited = []
    for _ in range(12):
        desktop.keyboard.press("Tab")
        visited.append(desktop.evaluate("() => document.activeElement.name || document.activeElement.type"))
        if visited[-1] == "submit":
            break
    assert "count" in visited and "percent" in visited and visited[-1] == "submit", visited
    assert desktop.is_checked(".room-create [name=rule][value=all]"), f"tabbing through {visited} changed the rule"
    desktop.click(".room-create [name=count]")
    assert desktop.is_checked(".room-create [name=rule][value=atLeast]"), "a click into the count picks its rule"
    desktop.keyboard.press("Enter")
    desktop.wait_for_selector(".room-made:not([hidden])")
    assert desktop.inner_text(".room-made-rule") == "at least 2 like it"


def nojs(chromium):
    return chromium.new_context(java_script_enabled=False, viewport=DESKTOP)


def test_without_javascript_the_room_page_lists_members_and_matches(server, chromium):
    maker, joiner = nojs(chromium), nojs(chromium)
    try:
        page = maker.new_page()
        page.goto(f"{server.base}/d/getaways")
        page.click(".together-start summary")
        page.fill("#room-name", "Ana")
        page.check("input[name=rule][value=atLeast]")
        with page.expect_navigation():
            page.click(".room-create button[type=submit]")
        code = page.inner_text(".room .room-code")
        assert page.url.endswith(f"/r/{code}")
        other = joiner.new_page()
        other.goto(f"{server.base}/r/{code}")
        other.fill("#member-name", "Ben")
        with other.expect_navigation():
            other.click(".room-join-form button")
        # Both like the top card with the form's button (the room's swipes name the room).
        for p in (page, other):
            p.reload()
        top = page.get_attribute(TOP, "data-card")
        assert other.get_attribute(TOP, "data-card") == top
        for p in (page, other):
            with p.expect_navigation():
                p.click(".ctl-like")
        page.reload()
        assert page.inner_text(".room-members").count("Ana") == 1 and "Ben" in page.inner_text(".room-members")
        assert page.get_attribute(".match-list .match", "data-card") == top
        assert page.inner_text(".match-count") == "1"
    finally:
        maker.close()
        joiner.close()


def api_member(server, code=None, deck="getaways", body=None):
    """A participant credential for an API client and, with `code`, its membership: (credential, state)."""
    status, _, minted = server.request("POST", f"/api/v1/decks/{deck}/participants")
    assert status == 201, minted
    credential = minted["participant"]
    if code is None:
        return credential, None
    status, _, state = server.request("POST", f"/api/v1/rooms/{code}/members", {"participant": credential, **(body or {})})
    return credential, (status, state)


def room_by_api(server, **body):
    """A room created by an API member: (code, that member's credential)."""
    status, _, minted = server.request("POST", "/api/v1/decks/getaways/participants")
    status, _, state = server.request("POST", "/api/v1/decks/getaways/rooms", {"participant": minted["participant"], **body})
    assert status == 201, state
    return state["code"], minted["participant"]


def test_a_full_room_and_a_missing_room_say_so(server, chromium):
    code, _ = room_by_api(server, maxMembers=2)
    _, (status, _) = api_member(server, code)
    assert status == 201
    context = nojs(chromium)
    try:
        page = context.new_page()
        page.goto(f"{server.base}/r/{code.lower()}")
        # Not a member of a full room: no form, and why, in a sentence.
        assert page.query_selector(".room-join-form") is None
        assert "full" in page.inner_text(".room-closed")
        assert page.query_selector(".room-members") is None, "a non-member sees nothing of the room's state"
        response = page.goto(f"{server.base}/r/ZZZZZZ")
        assert response.status == 404
        assert "No room has that code" in page.inner_text("#room-join-error")
        response = page.goto(f"{server.base}/r?code=k7m2q0")
        assert response.status == 400 and "without 0, 1, I, L or O" in page.inner_text("#room-join-error")
    finally:
        context.close()


def finish_without_a_match(server, page, direction):
    """Starts a room on the page (no JavaScript), lets an API member swipe every card `direction`,
    then passes on every card on the page until the stack is empty."""
    page.goto(f"{server.base}/d/getaways")
    page.click(".together-start summary")
    with page.expect_navigation():
        page.click(".room-create button[type=submit]")
    code = page.inner_text(".room .room-code")
    credential, (status, _) = api_member(server, code)
    assert status == 201
    for card in card_ids(server):
        body = swipe_body(card, "x", direction)
        body["participant"], body["room"] = credential, code
        status, _, answer = server.request("POST", "/api/v1/decks/getaways/swipes", body)
        assert status == 201, answer
    while page.query_selector(TOP):
        with page.expect_navigation():
            page.click(".ctl-nope")


def test_a_room_finished_without_a_match_offers_the_closest_cards_and_a_second_round(server, chromium):
    context = nojs(chromium)
    try:
        page = context.new_page()
        # The API member likes every card; the page's member passes on every one: nothing matches.
        finish_without_a_match(server, page, "right")
        assert page.is_visible(".room-finished")
        assert "This room has decided" in page.inner_text(".room-finished")
        assert not page.is_visible(".controls"), "a finished room shows no buttons to swipe or undo with"
        assert "Nothing matched" in page.inner_text(".room-finished")
        assert len(page.query_selector_all(".closest-list .closest")) > 0
        assert "1 liked it" in page.inner_text(".closest-list")
        with page.expect_navigation():
            page.click(".second-round button")
        assert "second round" in page.inner_text(".room-head")
        assert page.query_selector(TOP) is not None, "round 2 deals the closest cards again"
    finally:
        context.close()


def join_without_scripts(page, server, code):
    page.goto(f"{server.base}/r/{code}")
    page.fill("#member-name", "Dee")
    with page.expect_navigation():
        page.click(".room-join-form button")


def test_a_finished_room_offers_no_leaving_and_a_stale_leave_shows_the_room(server, chromium):
    """Issue 39 D4: a finished room shows no "Leave the room"; a page served while the room was open whose
    "Leave the room" is clicked after it ended (here: expired) shows the room's page, not a bare 409."""
    context = nojs(chromium)
    try:
        page = context.new_page()
        # A room that ends at its first match: the API member and the page's member like the top card.
        code, creator = room_by_api(server, endOnFirstMatch=True)
        join_without_scripts(page, server, code)
        assert page.is_visible(".room-leave")
        body = swipe_body(int(page.get_attribute(TOP, "data-card")), "x", "right")
        body["participant"], body["room"] = creator, code
        status, _, answer = server.request("POST", "/api/v1/decks/getaways/swipes", body)
        assert status == 201, answer
        with page.expect_navigation():
            page.click(".ctl-like")
        assert page.is_visible(".room-finished")
        assert not page.is_visible(".room-leave"), "a finished room has nobody to leave"
        code, _ = room_by_api(server)
        join_without_scripts(page, server, code)
        assert page.is_visible(".room-leave")
        with sqlite3.connect(server.db) as db:
            db.execute("UPDATE rooms SET expiresAt = 0 WHERE code = ?", (code,))
        with page.expect_navigation() as left:
            page.click(".room-leave button")
        assert left.value.status == 200, left.value.status
        assert page.url.endswith(f"/r/{code}") and page.is_visible(".room-expired")
        assert not page.is_visible(".room-leave")
    finally:
        context.close()


def test_an_expired_room_says_so_and_a_non_member_sees_only_the_join_form(server, chromium):
    code, _ = room_by_api(server, expiresInHours=1)
    context = nojs(chromium)
    try:
        page = context.new_page()
        page.goto(f"{server.base}/r/{code}")
        assert page.query_selector(".room-join-form") is not None
        assert page.query_selector(".room-members") is None and page.query_selector(TOP) is None
        page.fill("#member-name", "Dee")
        with page.expect_navigation():
            page.click(".room-join-form button")
        assert "Dee" in page.inner_text(".room-members")
        # An hour later (the room's clock is the database's expiry): it reads as expired.
        with sqlite3.connect(server.db) as db:
            db.execute("UPDATE rooms SET expiresAt = expiresAt - 7200 WHERE code = ?", (code,))
        page.reload()
        assert page.is_visible(".room-expired")
        assert "expired" in page.inner_text(".room-expired")
        assert not page.is_visible(".stack-wrap .card")
    finally:
        context.close()


def join_on_page(page, server, code, name):
    """A non-member joins on the room's page: types a name, Enter; waits for the room's stack."""
    page.goto(f"{server.base}/r/{code}")
    page.click("#member-name")
    page.keyboard.type(name)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.wait_for_selector(".deck-page[data-ready=true] " + TOP)


def console_errors(page):
    """Every console error the page logs from now on (a CSP refusal, a failed request)."""
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    return errors


def assert_controls_visible(page):
    """The ✕ and ♥ buttons lie wholly inside the viewport, without scrolling."""
    view = page.viewport_size
    assert page.evaluate("() => scrollY") == 0
    for selector in (".ctl-nope", ".ctl-like"):
        box = page.locator(selector).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= view["height"], (selector, box, view)
        assert box["x"] >= 0 and box["x"] + box["width"] <= view["width"], (selector, box, view)


def test_a_room_shows_its_controls_on_screen_and_logs_no_console_errors(server, phone, desktop):
    code, creator = room_by_api(server)
    errors = {"phone": console_errors(phone), "desktop": console_errors(desktop)}
    # Joining on the room's page fetches nothing of the room's state before the visitor is a member (a 403).
    join_on_page(phone, server, code, "Ana")
    join_on_page(desktop, server, code, "Ben")
    for page in (phone, desktop):
        assert_controls_visible(page)
        assert page.is_visible(".room-leave"), "leaving stays possible, below the controls"
    # All three like the top card: a match, shown live; on reload the drawer lists it (no inline style).
    top = phone.get_attribute(TOP, "data-card")
    body = swipe_body(int(top), "x", "right")
    body["participant"], body["room"] = creator, code
    status, _, answer = server.request("POST", "/api/v1/decks/getaways/swipes", body)
    assert status == 201, answer
    for page in (phone, desktop):
        page.click(".ctl-like")
    for page in (phone, desktop):
        page.wait_for_selector(".match-overlay[open]")
        page.click(".match-close")
        page.reload()
        page.wait_for_selector(".deck-page[data-ready=true] " + TOP)
        assert page.inner_text(".match-count") == "1"
        assert_controls_visible(page)
    assert errors == {"phone": [], "desktop": []}


def test_its_a_match_is_modal_for_the_keyboard(server, desktop):
    """Issue 39 K2: while "It's a match!" is up, Tab stays inside it and Enter decides no card behind it;
    closing it returns focus to the button that made the match."""
    code, creator = room_by_api(server)
    join_on_page(desktop, server, code, "Ben")
    top = desktop.get_attribute(TOP, "data-card")
    body = swipe_body(int(top), "x", "right")
    body["participant"], body["room"] = creator, code
    status, _, answer = server.request("POST", "/api/v1/decks/getaways/swipes", body)
    assert status == 201, answer
    desktop.click(".ctl-like")
    desktop.wait_for_selector(".match-overlay .match-close", state="visible")
    inside = "() => !!document.activeElement?.closest('.match-overlay')"
    assert desktop.evaluate(inside), "focus is inside the dialog when it opens"
    for i in range(6):
        desktop.keyboard.press("Tab" if i % 2 else "Shift+Tab")
        where = desktop.evaluate("() => document.activeElement?.outerHTML.slice(0, 80)")
        assert desktop.evaluate(inside), f"Tab left the dialog for {where}"
    decided = server.sql("SELECT COUNT(*) FROM swipes")
    desktop.keyboard.press("Enter")  # on "Keep swiping": it closes the dialog and decides nothing
    desktop.wait_for_selector(".match-overlay .match-close", state="hidden")
    assert desktop.evaluate("() => document.activeElement?.classList.contains('ctl-like')"), "focus returns"
    desktop.wait_for_timeout(300)
    assert server.sql("SELECT COUNT(*) FROM swipes") == decided == [("2",)]


def test_a_room_where_nobody_liked_any_card_says_so_and_offers_a_new_room(server, chromium):
    context = nojs(chromium)
    try:
        page = context.new_page()
        finish_without_a_match(server, page, "left")
        words = page.inner_text(".room-finished")
        assert "Nobody liked any card this time." in words and "came closest" not in words
        assert not page.is_visible(".second-round")
        with page.expect_navigation():
            page.click(".room-new")
        assert page.url.endswith("/d/getaways#decide-together")
        assert page.is_visible(".together-start summary")
    finally:
        context.close()


def close_getaways(server, closed=True):
    status, _, text = server.request("PATCH", "/api/v1/decks/getaways", {"open": not closed},
                                     {"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert status == 200, text


def test_a_closed_deck_offers_no_rooms(server, desktop):
    desktop.goto(f"{server.base}/d/getaways")
    desktop.wait_for_selector(".together[data-ready=true]")
    assert desktop.is_visible(".together-start summary") and desktop.is_visible(".together-join summary")
    # Closed while the page is open: the refused swipe shows the closed panel, and the rooms go with it.
    close_getaways(server)
    desktop.click(".ctl-like")
    desktop.wait_for_selector(".state-closed:not([hidden])")
    assert not desktop.is_visible(".together-start summary") and not desktop.is_visible(".together-join summary")
    # Served closed: the same.
    desktop.reload()
    desktop.wait_for_selector(".state-closed:not([hidden])")
    assert not desktop.is_visible(".together-start summary") and not desktop.is_visible(".together-join summary")


FIELD_STYLE = """(e) => { const s = getComputedStyle(e);
    return [s.paddingLeft, s.borderTopLeftRadius, s.borderTopStyle, Math.round(e.getBoundingClientRect().width)
        >= Math.round(e.parentElement.getBoundingClientRect().width) - 1]; }"""


def test_the_room_fields_are_styled_like_the_apps_other_fields(server, phone):
    phone.goto(f"{server.base}/d/getaways")
    phone.wait_for_selector(".together[data-ready=true]")
    # Folded, the two are buttons on one row and the stack page does not scroll.
    assert phone.evaluate("document.scrollingElement.scrollHeight <= innerHeight"), "the stack page must not scroll"
    phone.click(".together-join summary")
    assert phone.eval_on_selector("#room-join-code", FIELD_STYLE) == ["12px", "10px", "solid", True]
    phone.click(".together-start summary")
    assert phone.eval_on_selector("#room-name", FIELD_STYLE) == ["12px", "10px", "solid", True]
    phone.click(".room-create button[type=submit]")
    phone.wait_for_selector(".room-made:not([hidden])")
    assert phone.eval_on_selector(".room-link", FIELD_STYLE) == ["12px", "10px", "solid", True]
    # The server is reached at 127.0.0.1: the link warns, in the owner's Share panel's words.
    warning = phone.locator(".room-made .reach-warning")
    assert warning.is_visible()
    assert "This link points at this computer itself (127.0.0.1)" in warning.inner_text()


def test_the_options_ticked_on_the_form_make_the_room_and_joiners_are_told(server, chromium):
    context, visitor = nojs(chromium), nojs(chromium)
    try:
        page = context.new_page()
        page.goto(f"{server.base}/d/getaways")
        page.click(".together-start summary")
        page.click(".room-create [name=likedFirst]")
        page.keyboard.press("Tab")
        page.keyboard.press("Space")
        assert page.is_checked(".room-create [name=endOnFirstMatch]"), "the keyboard ticks the second option"
        with page.expect_navigation():
            page.click(".room-create button[type=submit]")
        code = page.inner_text(".room .room-code")
        other = visitor.new_page()
        other.goto(f"{server.base}/r/{code}")
        words = other.inner_text(".room-join-page")
        assert "Cards other members liked are dealt first" in words
        assert "The room ends at its first match." in words
        # The API says the same of the room: a member reads its settings.
        credential, (status, state) = api_member(server, code)
        assert status == 201 and state["likedFirst"] is True and state["endOnFirstMatch"] is True, state
        # A room started without them says neither.
        plain, _ = room_by_api(server)
        other.goto(f"{server.base}/r/{plain}")
        words = other.inner_text(".room-join-page")
        assert "dealt first" not in words and "first match" not in words
    finally:
        context.close()
        visitor.close()
