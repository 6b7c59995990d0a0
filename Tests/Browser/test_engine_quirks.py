"""Engine differences the page must absorb, checked in the engine itself (Chromium, WebKit, Firefox).

Outside a secure context (a phone on the LAN reaching http://host:port) every engine hides
crypto.randomUUID and navigator.locks; the deck must still swipe, deliver and undo there. The server
listens on all interfaces and the page is opened at this machine's non-loopback address (127.0.0.0/8
counts as secure in every engine)."""
import socket
import time
import urllib.request

import pytest

from deckkit import DESKTOP, TOP, poll, swipes
from enginekit import card_centre_of, open_deck, wait_queue_empty, wait_settled, wait_thrown, wait_top_is
from engines import drag_points


def lan_address():
    """This machine's address on its default route, or None (no non-loopback interface)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the route's source address
            address = s.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def test_the_deck_works_outside_a_secure_context(make_server, engine):
    address = lan_address()
    if not address:
        pytest.skip("no non-loopback address on this machine: an insecure origin needs one")
    server = make_server(extra_args=["--host", "0.0.0.0"])
    page = engine.new_page(viewport=DESKTOP)
    try:
        insecure = type("Insecure", (), {"base": f"http://{address}:{server.port}"})
        first = open_deck(page, insecure)
        context = page.evaluate("() => [isSecureContext, typeof crypto.randomUUID, typeof navigator.locks]")
        assert context == [False, "undefined", "undefined"], f"{engine.name}: {context}"
        page.press("ArrowRight")
        second = wait_thrown(page, first)
        box, x0, y0 = card_centre_of(page)
        page.gesture("mouse", x0, y0, drag_points(x0, y0, -box["width"] * 0.55, 10, 400, 24))
        wait_thrown(page, second)
        rows = poll(lambda: (lambda r: r if len(r) == 2 else None)(swipes(server)), what="2 swipes stored")
        assert [(str(r["cardId"]), r["direction"], r["input"]) for r in rows] == [
            (first, "right", "key"), (second, "left", "drag")]
        assert all(len(r["id"]) == 32 for r in rows), "keys from getRandomValues (no randomUUID here)"
        wait_queue_empty(page)
        page.press("z")
        wait_top_is(page, second)
        poll(lambda: swipes(server)[1]["undoneAt"] is not None, what="the drag undone on the server")
        errors = page.page_errors()
        assert not errors, f"{engine.name}: {errors}"
    finally:
        page.close()


def test_the_join_puzzle_is_solved_outside_a_secure_context(make_server, engine):
    """On an insecure origin (no crypto.subtle where the engine hides it) the join puzzle is still solved."""
    address = lan_address()
    if not address:
        pytest.skip("no non-loopback address on this machine: an insecure origin needs one")
    server = make_server(extra_args=["--host", "0.0.0.0", "--rate-mint", "0.05"])
    base = f"http://{address}:{server.port}"
    for _ in range(40):
        with urllib.request.urlopen(f"{base}/") as r:
            if not r.headers.get("Set-Cookie"):
                break
    page = engine.new_page(viewport=DESKTOP)
    try:
        first = open_deck(page, type("Insecure", (), {"base": base}))
        # Chromium and Firefox hide crypto.subtle here (the page then hashes with puzzle.js's own SHA-256).
        assert page.evaluate("() => isSecureContext") is False
        assert page.count("#join-puzzle") == 1, f"{engine.name}: no puzzle on the page"
        wait_settled(page)  # the entrance is over, and the card read
        time.sleep(0.4)
        page.press("ArrowRight")
        wait_thrown(page, first)
        rows = poll(lambda: swipes(server), timeout=20, what="the swipe stored after the join")
        assert [(str(r["cardId"]), r["direction"], r["suspect"]) for r in rows] == [(first, "right", 0)]
        errors = page.page_errors()
        assert not errors, f"{engine.name}: {errors}"
    finally:
        page.close()


def test_reduced_motion_throw_and_undo(server, engine):
    """prefers-reduced-motion (Chromium: emulated; WebKitGTK: GTK animations off; Firefox:
    ui.prefersReducedMotion): a throw fades out, an undo fades the card in where it belongs through the
    Web Animations API (Element.animate), whether its throw had ended or not."""
    page = engine.new_page(viewport=DESKTOP, reduced_motion=True)
    try:
        first = open_deck(page, server)
        assert page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches") is True
        for pause in (0.6, 0.06):
            page.click(".ctl-like")
            time.sleep(pause)
            page.click(".ctl-undo")
            wait_top_is(page, first)
            # The fade's end, not a fixed wait: WebKitGTK under Xvfb holds an opacity animation of the
            # re-inserted (composited) card at currentTime 0 for 0.2-0.5 s before it starts.
            page.wait_for("(sel) => !document.querySelector(sel).getAnimations().length", TOP, timeout=3,
                          what="the fade in finished")
            state = page.evaluate("""(sel) => { const e = document.querySelector(sel), r = e.getBoundingClientRect();
                return {x: r.x, transform: e.style.transform, opacity: getComputedStyle(e).opacity,
                        stamps: [...e.querySelectorAll('.overlay')].map((o) => +o.style.opacity || 0)}; }""", TOP)
            assert 0 <= state["x"] < DESKTOP["width"] and state["transform"] == "", (engine.name, pause, state)
            assert state["opacity"] == "1" and not any(state["stamps"]), (engine.name, pause, state)
        rows = poll(lambda: swipes(server), what="the swipes stored")
        assert rows and all(r["direction"] == "right" for r in rows)
        errors = page.page_errors()
        assert not errors, f"{engine.name}: {errors}"
    finally:
        page.close()


def test_a_card_dragged_over_the_edge_brings_no_scrollbars(server, engine):
    """A card dragged (or thrown) past the viewport's edge overhangs the page. Firefox with classic
    scrollbars (Linux, Windows) then showed both scrollbars mid-drag and the page reflowed 12 px narrower
    and shorter under the finger; the page clips sideways overflow at the viewport instead. (Headless
    Chromium hides its scrollbars, and WebKitGTK did not count the transformed card as overflow.)"""
    page = engine.new_page(viewport={"width": 390, "height": 844})
    try:
        open_deck(page, server)
        rest = page.evaluate("() => [document.documentElement.clientWidth, document.documentElement.clientHeight]")
        box, x0, y0 = card_centre_of(page)
        page.gesture("mouse", x0, y0, drag_points(x0, y0, box["width"] * 0.3, 10, 300, 15), release=False)
        page.wait_for("(sel) => document.querySelector(sel).getBoundingClientRect().right > innerWidth", TOP,
                      what="the card over the right edge")
        dragging = page.evaluate("() => [document.documentElement.clientWidth, document.documentElement.clientHeight]")
        page.pointer_up("mouse")
        assert dragging == rest, f"{engine.name}: the viewport lost room to scrollbars mid-drag: {rest} → {dragging}"
    finally:
        page.close()


def test_inert_cards_under_the_top_one_take_no_focus(server, desktop_page):
    """The cards under the top one are inert (their links would open a card not on top): Tab from the top
    card's link goes to the controls in every engine."""
    page = desktop_page
    open_deck(page, server)
    assert page.evaluate("() => [...document.querySelectorAll('#stack .card')].filter((c) => !c.inert).length") == 1
    page.evaluate("(sel) => document.querySelector(sel + ' .card-link').focus()", TOP)
    assert page.evaluate("(sel) => document.activeElement === document.querySelector(sel + ' .card-link')", TOP)
    page.press("Tab")
    where = page.evaluate("""() => document.activeElement.closest('.controls, .card')?.className
        ?? document.activeElement.tagName""")
    assert where.startswith("controls"), f"{page.engine}: Tab went to {where!r}, not to the controls"
