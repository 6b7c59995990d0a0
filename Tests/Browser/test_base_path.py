"""`--base-path /decks`: a swiper on a phone under the sub-path drags and presses buttons, undoes,
reads My swipes; images load; every request the page makes stays under the sub-path."""
from deckkit import TOP, poll, swipes, top_box, top_card, touch_gesture, wait_swipes, wait_thrown


def test_a_swiper_under_a_sub_path(make_server, phone):
    server = make_server(extra_args=["--base-path", "/decks"])
    page = phone
    outside = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(server.base + "/decks/") else None)
    broken = []
    page.on("response", lambda r: broken.append((r.status, r.url)) if r.status >= 400 else None)
    page.goto(f"{server.base}/decks/d/getaways")
    page.wait_for_function("document.documentElement.classList.contains('js') && !!document.querySelector('#stack .card')")
    # The cover image of the top card loaded from under the sub-path.
    page.wait_for_function(f"() => [...document.querySelectorAll('{TOP} img')].every(i => i.complete && i.naturalWidth > 0)")

    # A touch drag to the right counts.
    first = top_card(page)
    box = top_box(page)
    touch_gesture(page.context.new_cdp_session(page), box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, 260, 4)
    wait_thrown(page, first)
    rows = wait_swipes(server, 1)
    assert rows[0]["cardId"] == int(first) and rows[0]["direction"] == "right" and rows[0]["input"] == "drag"

    # A button press, then undo through the API path the script builds.
    second = top_card(page)
    page.tap(".ctl-nope")
    wait_thrown(page, second)
    wait_swipes(server, 2)
    poll(lambda: page.evaluate("localStorage.getItem('sd-queue:getaways') || '[]'") == "[]", what="an empty queue")
    page.tap(".ctl-undo")
    poll(lambda: sum(r["undoneAt"] is not None for r in swipes(server)) == 1, what="one undone swipe")

    # My swipes, reached by the page's own link.
    page.goto(f"{server.base}/decks/d/getaways/history")
    assert page.locator(".history").count() == 1
    assert outside == [], outside
    assert broken == [], broken
