"""Edge cases a review of deck.js found, each reproduced in Chromium before it was fixed: a lost answer
then an undo, card requests while offline, mouse presses that never became drags."""
import time

from deckkit import TOP, Mouse, as_owner, open_deck, poll, queue, swipes, top_box, top_card, wait_thrown


def test_undo_after_a_lost_answer_asks_the_server(server, desktop):
    """The POST reached the server but its answer was lost: the swipe is stored. An undo then must not just
    drop the queued item (the row would stay live); it queues a DELETE, and both land once the network is back."""
    page = desktop
    first = open_deck(page, server)
    lost = []

    def lose_answer(route):
        if not lost:
            route.fetch()  # the server stores the swipe...
            lost.append(1)
        route.abort()  # ...and the page never hears back (nor on its retries, for now)

    page.route("**/api/v1/decks/getaways/swipes", lose_answer)
    page.keyboard.press("ArrowRight")
    wait_thrown(page, first)
    poll(lambda: lost and len(swipes(server)) == 1, what="the swipe stored, its answer lost")
    page.keyboard.press("z")
    page.wait_for_function("([sel, id]) => document.querySelector(sel)?.dataset.card === id", arg=[TOP, first])
    assert [bool(i.get("undo")) for i in queue(page)] == [False, True], queue(page)

    page.unroute("**/api/v1/decks/getaways/swipes")
    poll(lambda: queue(page) == [], timeout=20, what="the POST replayed and the DELETE delivered")
    rows = swipes(server)
    assert len(rows) == 1 and rows[0]["undoneAt"] is not None, rows


def test_no_request_storm_for_cards_while_offline(server, desktop):
    """Near the end of the rendered cards the page asks for more; offline, it waits instead of asking again at once."""
    page = desktop
    open_deck(page, server)
    asked = []
    page.route("**/api/v1/decks/getaways/cards*", lambda route: (asked.append(1), route.abort()))
    for _ in range(3):
        top = top_card(page)
        page.keyboard.press("ArrowLeft")
        wait_thrown(page, top)
    time.sleep(1.5)
    assert 1 <= len(asked) <= 3, f"{len(asked)} card requests in about 2 s while offline"


def test_a_press_that_starts_vertically_drags_and_does_not_open_the_card(server, desktop):
    """A mouse press that moves vertically first drags the card (as on a native card stack; a mouse
    cannot scroll the page by dragging); carried on sideways slowly and released on the card, the card
    springs back and the release's click must not open the detail view."""
    page = desktop
    first = open_deck(page, server)
    box = top_box(page)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.4
    page.eval_on_selector(TOP, """e => { window.moves = [];
        new MutationObserver(() => e.style.transform && moves.push(e.style.transform))
            .observe(e, { attributes: true, attributeFilter: ['style'] }); }""")
    m = Mouse(page)
    m.press(x, y)
    m.move(x, y + 14, 0.05)
    m.move(x + 20, y + 20, 0.5)
    m.move(x + 30, y + 20, 1.0)
    m.up()
    time.sleep(0.8)
    assert page.evaluate("window.moves.length") > 0, "the card did not follow the press"
    assert page.url.endswith("/d/getaways"), page.url
    assert top_card(page) == first and swipes(server) == []


def test_a_press_released_off_the_stack_leaves_no_half_drag(server, desktop):
    """Pressed on the card's edge and released just outside the stack (within the dead zone): hovering over the
    card afterwards, with no button held, must not move it, and a later click must not throw it."""
    page = desktop
    first = open_deck(page, server)
    box = top_box(page)
    x, y = box["x"] + box["width"] - 2, box["y"] + box["height"] / 2
    m = Mouse(page)
    m.press(x, y)
    m.move(x + 4, y, 0.05)
    m.up()
    # Hover across the card with no button held.
    for i in range(1, 10):
        page.mouse.move(x - 30 * i, y)
    time.sleep(0.3)
    assert page.eval_on_selector(TOP, "e => e.style.transform") == "", "the card follows a hovering mouse"
    assert swipes(server) == [] and top_card(page) == first


def test_other_keys_keep_working(server, desktop):
    """The page's key handler acts on its own keys only: Tab, Enter, Space and the rest keep their defaults
    (Enter on the focused Details link opens the card)."""
    page = desktop
    first = open_deck(page, server)
    for key in ("Tab", "Enter", " ", "PageDown", "a", "Escape"):
        prevented = page.evaluate("""k => { const e = new KeyboardEvent('keydown', {key: k, bubbles: true, cancelable: true});
            document.body.dispatchEvent(e); return e.defaultPrevented; }""", key)
        assert not prevented, f"{key!r} was cancelled"
    page.focus(f"{TOP} .card-link")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/d/getaways/cards/{first}")


def test_a_held_arrow_key_throws_one_card(server, desktop):
    page = desktop
    first = open_deck(page, server)
    for _ in range(6):
        page.keyboard.down("ArrowRight")  # the second and later downs carry repeat: true
    page.keyboard.up("ArrowRight")
    wait_thrown(page, first)
    time.sleep(1.0)
    assert len(swipes(server)) == 1, swipes(server)


def test_a_throw_keeps_the_rotation_of_the_drag(server, desktop):
    """Grabbed below the centre (standard rotates about the grab point), a card dragged right turns
    anticlockwise, and keeps turning that way while it flies out: no jump of sign at the release."""
    page = desktop
    first = open_deck(page, server)
    page.eval_on_selector(TOP, """el => { window.rot = []; new MutationObserver(() => {
        const m = /rotate\\(([-0-9.e]+)rad\\)/.exec(el.style.transform); if (m) window.rot.push(+m[1]); })
        .observe(el, {attributes: true, attributeFilter: ['style']}); }""")
    box = top_box(page)
    Mouse(page).drag(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.8, box["width"] * 0.6, 0,
                     duration_ms=300, moves=20)
    wait_thrown(page, first)
    rot = page.evaluate("window.rot")
    assert len(rot) > 5 and all(r <= 0 for r in rot), rot


def test_the_stack_refills_after_being_offline(server, desktop):
    """Offline, the rendered cards run out; back online, more cards arrive without another swipe and the
    page does not claim the deck is done meanwhile."""
    page = desktop
    open_deck(page, server)
    page.route("**/api/v1/decks/getaways/cards*", lambda route: route.abort())
    while top_card(page):
        top = top_card(page)
        page.keyboard.press("ArrowLeft")
        wait_thrown(page, top) if page.locator(TOP).count() > 1 else page.wait_for_function(
            "id => !document.querySelector(`#stack [data-card=\"${id}\"]`)", arg=top)
    assert page.locator(".empty-state").is_hidden(), "'all caught up' while 16 cards are still to come"
    page.unroute("**/api/v1/decks/getaways/cards*")
    page.wait_for_selector(TOP, timeout=12_000)


def test_swipes_work_without_randomUUID(server, chromium):
    """crypto.randomUUID exists only in secure contexts; a phone on the LAN reaching http://host:port has
    none, and swiping must still work (keys from getRandomValues)."""
    ctx = chromium.new_context(viewport={"width": 1280, "height": 800})
    ctx.add_init_script("delete Crypto.prototype.randomUUID")
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    first = open_deck(page, server)
    page.keyboard.press("ArrowRight")
    wait_thrown(page, first)
    rows = poll(lambda: swipes(server), what="the swipe stored")
    assert len(rows[0]["id"]) == 32 and not errors, (rows, errors)
    ctx.close()


def test_undo_after_a_reload_undoes_the_latest_swipe(server, desktop):
    """Nothing thrown on this page (a reload, or back from a detail view): Undo asks the server to undo the
    latest swipe, and the card is back on top."""
    page = desktop
    first = open_deck(page, server)
    page.keyboard.press("ArrowRight")
    wait_thrown(page, first)
    poll(lambda: queue(page) == [] and len(swipes(server)) == 1, what="the swipe delivered")
    page.reload()
    page.wait_for_function("document.documentElement.classList.contains('js')")
    assert top_card(page) != first
    page.keyboard.press("z")
    page.wait_for_function("([sel, id]) => document.querySelector(sel)?.dataset.card === id", arg=[TOP, first], timeout=10_000)
    assert swipes(server)[0]["undoneAt"] is not None


def test_reduced_motion_undo_brings_the_card_back_in_place(server, chromium):
    """Under reduced motion an undone card fades in where it belongs, whether its throw had ended or not;
    it is the visible top card, so the next swipe is the one the user sees."""
    ctx = chromium.new_context(viewport={"width": 390, "height": 844}, reduced_motion="reduce", has_touch=True)
    page = ctx.new_page()
    first = open_deck(page, server)
    for pause in (600, 60):
        page.click(".ctl-like")
        page.wait_for_timeout(pause)
        page.click(".ctl-undo")
        page.wait_for_function("([sel, id]) => document.querySelector(sel)?.dataset.card === id", arg=[TOP, first])
        page.wait_for_timeout(400)
        box = page.locator(TOP).bounding_box()
        assert 0 <= box["x"] < 390 and page.eval_on_selector(TOP, "e => e.style.transform") == "", (pause, box)
        assert page.eval_on_selector(TOP, "e => [...e.querySelectorAll('.overlay')].every(o => !+o.style.opacity)"), \
            "the undone card still wears its LIKE stamp"
    ctx.close()


def test_double_undo_after_a_reload_undoes_one(server, desktop):
    page = desktop
    open_deck(page, server)
    for _ in range(3):
        top = top_card(page)
        page.keyboard.press("ArrowRight")
        wait_thrown(page, top)
    poll(lambda: queue(page) == [] and len(swipes(server)) == 3, what="3 swipes delivered")
    page.reload()
    page.wait_for_function("document.documentElement.classList.contains('js')")
    page.dblclick(".ctl-undo")
    page.wait_for_load_state("load")
    time.sleep(1.0)
    assert sum(r["undoneAt"] is not None for r in swipes(server)) == 1


def test_cards_under_the_top_one_take_no_focus(server, desktop):
    page = desktop
    open_deck(page, server)
    assert page.evaluate("[...document.querySelectorAll('#stack .card')].filter(c => !c.inert).length") == 1
    page.focus(f"{TOP} .card-link")
    page.keyboard.press("Tab")
    assert page.evaluate("!!document.activeElement.closest('.controls')"), "Tab went into a card under the top one"


CONTRAST = """(el) => {
  const rgb = c => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  // The first ancestor with an opaque background colour is what the text sits on.
  let bg = null;
  for (let e = el; e && !bg; e = e.parentElement) {
    const c = rgb(getComputedStyle(e).backgroundColor);
    if (c.length < 4 || c[3] === 1) { if (c.length < 4 || c[3] > 0) bg = c.slice(0, 3); }
    else if (c[3] > 0) {
      // A translucent tint over the page: blend it over white (light mode) for the measure.
      bg = c.slice(0, 3).map(v => v * c[3] + 255 * (1 - c[3]));
    }
  }
  const a = lum(rgb(getComputedStyle(el).color)), b = lum(bg || [245, 242, 248]);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


def test_text_contrast_and_focus_ring(server, desktop):
    """Key text meets WCAG AA (4.5:1) in light mode, and a keyboard focus shows a solid outline even on
    elements that draw their own shadow (the deck tile)."""
    page = desktop
    open_deck(page, server)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    poll(lambda: len(swipes(server)) == 2, what="2 swipes")
    checks = {"/": [".pill", ".tile-text p"], "/d/getaways/history": [".badge-right", ".badge-left", ".act-flip", ".muted"],
              "/d/getaways/results": [".ranked th", ".ranked tbody tr:first-child .rank"]}
    as_owner(page)
    for path, sels in checks.items():
        page.goto(server.base + path)
        for sel in sels:
            ratio = page.eval_on_selector(sel, CONTRAST)
            assert ratio >= 4.5, f"{path} {sel}: {ratio:.2f}:1"
    page.goto(server.base + "/")
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('deck-tile')"):
            break
    style = page.evaluate("(s => [s.outlineStyle, parseFloat(s.outlineWidth)])(getComputedStyle(document.activeElement))")
    assert style[0] == "solid" and style[1] >= 2, style
