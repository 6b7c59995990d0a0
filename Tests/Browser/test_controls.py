"""Buttons, keyboard and undo on the desktop page; a reload resumes at the first unswiped card."""
import time

from deckkit import TOP, open_deck, poll, queue, swipes, top_card, wait_swipes, wait_thrown


def test_backspace_undo_restacks_and_reload_resumes(server, desktop):
    """Beyond the three-engine buttons/keys/undo test (test_engines.py): the card that had come up
    goes back under the undone one, Backspace undoes too, and a reload resumes mid-deck."""
    page = desktop
    done = []

    def act(do, direction, input_):
        top = top_card(page)
        do()
        wait_thrown(page, top)
        done.append((int(top), direction, input_))
        rows = wait_swipes(server, len(done))
        assert [(r["cardId"], r["direction"], r["input"]) for r in rows] == done

    open_deck(page, server)
    act(lambda: page.click(".ctl-like"), "right", "button")
    act(lambda: page.keyboard.press("ArrowLeft"), "left", "key")
    act(lambda: page.keyboard.press("ArrowRight"), "right", "key")

    # Undo once the last swipe is acknowledged (otherwise it is only dropped from the local queue).
    poll(lambda: queue(page) == [], what="an empty delivery queue")
    last = str(done[-1][0])
    before = top_card(page)
    page.keyboard.press("Backspace")
    page.wait_for_function("([sel, id]) => document.querySelector(sel)?.dataset.card === id", arg=[TOP, last])
    # The card springs back into place and the one that had come up goes back under it.
    page.wait_for_function("sel => !document.querySelector(sel).style.transform", arg=TOP)
    assert page.eval_on_selector(f'#stack .card[data-card="{before}"]', "e => e.dataset.depth") == "1"
    poll(lambda: sum(r["undoneAt"] is not None for r in swipes(server)) == 1, what="one undone row")

    # Reload mid-deck: the server renders the first card without a live swipe on top.
    page.reload()
    assert open_deck(page, server) == last
    shown = page.eval_on_selector_all("#stack .card", "es => es.map(e => +e.dataset.card)")
    assert not set(shown) & {c for c, _, _ in done[:2]}, f"swiped cards must not come back: {shown}"
    assert page.inner_text("#remaining") == "22"
    # Swiping the resumed card works and counts once.
    act(lambda: page.click(".ctl-like"), "right", "button")
    rows = swipes(server)
    assert len(rows) == 4 and sum(r["undoneAt"] is None for r in rows) == 3


def test_undo_during_the_throw(server, desktop):
    """Undo pressed while the card is still flying out (and its POST may be in flight): the card
    comes back and stays, and the server ends with no live swipe for it."""
    page = desktop
    first = open_deck(page, server)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("z")
    # Past the longest throw (throwMaxMs 480) and the spring back: the end state must hold.
    page.wait_for_timeout(1500)
    assert top_card(page) == first, "the card that was put back must not be removed when its throw animation ends"
    assert page.locator(f'#stack .card[data-card="{first}"]').count() == 1
    assert page.eval_on_selector(TOP, "e => e.style.transform") == ""
    assert page.inner_text("#remaining") == "24"
    poll(lambda: queue(page) == [], what="an empty delivery queue")
    time.sleep(0.5)
    live = [r for r in swipes(server) if r["undoneAt"] is None]
    assert live == [], f"an undone swipe must not stay counted: {live}"
    # And the card can be swiped again, once.
    act_card = top_card(page)
    page.keyboard.press("ArrowLeft")
    wait_thrown(page, act_card)
    live = poll(lambda: [r for r in swipes(server) if r["undoneAt"] is None], what="one live swipe")
    assert [(r["cardId"], r["direction"]) for r in live] == [(int(first), "left")]


def test_rejected_swipe_comes_back(server, desktop):
    """A 422 from the server (validation rejected the swipe) puts the card back with a toast."""
    page = desktop
    page.route("**/api/v1/decks/getaways/swipes", lambda route: route.fulfill(
        status=422, content_type="application/json",
        body='{"error":{"code":"decision_mismatch","message":"the trace does not support that decision"}}'))
    first = open_deck(page, server)
    page.click(".ctl-like")
    page.wait_for_selector(".toast:not(:empty)")
    assert "Not counted" in page.inner_text(".toast")
    page.wait_for_timeout(1500)
    assert top_card(page) == first, "a rejected card must be back on top after its throw animation"
    assert page.inner_text("#remaining") == "24"
    assert queue(page) == []
    assert swipes(server) == []


def test_rapid_swipes_are_posted_once_each(server, desktop):
    """Swipes faster than the network round trip: one delivery loop, one POST per swipe."""
    page = desktop
    open_deck(page, server)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 250, "downloadThroughput": -1, "uploadThroughput": -1})
    posts = []
    page.on("request", lambda r: r.method == "POST" and r.url.endswith("/swipes") and posts.append(r.headers.get("idempotency-key")))
    thrown = []
    for key in ("ArrowRight", "ArrowLeft", "ArrowRight"):
        top = top_card(page)
        page.keyboard.press(key)
        page.wait_for_function("([sel, id]) => document.querySelector(sel)?.dataset.card !== id", arg=[TOP, top])
        thrown.append(int(top))
    poll(lambda: queue(page) == [], timeout=10, what="an empty delivery queue")
    rows = wait_swipes(server, 3)
    assert [r["cardId"] for r in rows] == thrown
    assert sorted(posts) == sorted(r["id"] for r in rows), f"each swipe is POSTed exactly once: {posts}"
