"""Deck helpers for engines.base.Page (the three-engine suite): the deckkit helpers, engine-neutral."""
import json

from deckkit import TOP, poll


def open_deck(page, server, deck="getaways"):
    """Opens the deck page and waits until deck.js has wired it (data-ready); returns the top card id."""
    page.goto(f"{server.base}/d/{deck}")
    page.wait_for("""(sel) => document.documentElement.classList.contains('js')
        && document.querySelector('.deck-page')?.dataset.ready === 'true' && !!document.querySelector(sel)""",
                  TOP, what="the deck page ready")
    return top_card(page)


def top_card(page):
    return page.evaluate("(sel) => document.querySelector(sel)?.dataset.card ?? null", TOP)


def wait_thrown(page, card, timeout=10.0):
    """The card leaves the stack and another is on top; returns the new top id."""
    page.wait_for("""(id, sel) => !document.querySelector(`#stack [data-card="${id}"]`)
        && document.querySelector(sel) && document.querySelector(sel).dataset.card !== id""",
                  card, TOP, timeout=timeout, what=f"card {card} thrown")
    return top_card(page)


def wait_top_is(page, card, timeout=10.0):
    page.wait_for("(sel, id) => document.querySelector(sel)?.dataset.card === id", TOP, card, timeout=timeout,
                  what=f"card {card} on top")


def wait_settled(page, timeout=5.0):
    """The top card has no inline style left (spring finished) and is not being dragged."""
    page.wait_for("""(sel) => { const e = document.querySelector(sel);
        return !!e && !e.getAttribute('style') && !e.classList.contains('dragging'); }""", TOP, timeout=timeout,
                  what="the top card settled")


def top_box(page):
    return page.box(TOP)


def queue(page, deck="getaways"):
    return json.loads(page.evaluate("(k) => localStorage.getItem(k) || '[]'", f"sd-queue:{deck}"))


def wait_queue_empty(page, timeout=10.0):
    poll(lambda: queue(page) == [], timeout=timeout, what="an empty delivery queue")


def record_pointer_types(page):
    """From now on window.pointerTypes lists the pointerType of every pointerdown on the page."""
    page.evaluate("""() => { window.pointerTypes = [];
        addEventListener('pointerdown', (e) => pointerTypes.push(e.pointerType), true); }""")


def card_centre_of(page):
    """(box, x, y): the top card's box and a grab point at its centre, a little above the middle."""
    box = top_box(page)
    return box, box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.45
