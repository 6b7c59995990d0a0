"""JavaScript off: the deck page is a plain form; its buttons record swipes and the page advances."""
from deckkit import DESKTOP, TOP, wait_swipes


def test_form_buttons_work_without_javascript(server, chromium):
    ctx = chromium.new_context(java_script_enabled=False, viewport=DESKTOP)
    try:
        page = ctx.new_page()
        page.goto(server.base + "/d/getaways")
        assert page.get_attribute("html", "class") == "no-js"
        first = page.get_attribute(TOP, "data-card")
        assert page.input_value("form.controls input[name=card]") == first

        with page.expect_navigation():
            page.click(".ctl-like")
        second = page.get_attribute(TOP, "data-card")
        assert second != first
        (row,) = wait_swipes(server, 1)
        assert (str(row["cardId"]), row["direction"], row["input"]) == (first, "right", "button")
        assert page.inner_text("#remaining") == "23"

        with page.expect_navigation():
            page.click(".ctl-nope")
        third = page.get_attribute(TOP, "data-card")
        assert third not in (first, second)
        rows = wait_swipes(server, 2)
        assert [(str(r["cardId"]), r["direction"], r["input"]) for r in rows] == [(first, "right", "button"), (second, "left", "button")]

        # The undo form button brings the last card back.
        with page.expect_navigation():
            page.click(".ctl-undo")
        assert page.get_attribute(TOP, "data-card") == second
        rows = wait_swipes(server, 2)
        assert rows[1]["undoneAt"] is not None and rows[0]["undoneAt"] is None
    finally:
        ctx.close()
