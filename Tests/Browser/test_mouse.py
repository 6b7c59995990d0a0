"""Desktop mouse (1280×800): drags past the threshold throw the card, short slow drags spring back,
short fast flicks are flings. Every accepted gesture must land in SQLite as input `drag`."""
import json
import random

import pytest

from deckkit import TOP, Mouse, assert_no_swipes, open_deck, top_box, top_card, wait_swipes, wait_thrown


@pytest.mark.parametrize("direction", ["right", "left"])
def test_drag_past_threshold_throws_card(server, desktop, direction):
    page = desktop
    first = open_deck(page, server)
    box = top_box(page)
    sign = 1 if direction == "right" else -1
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.45
    # distanceThreshold is 0.35 of the card width; drag to 0.55 with a human-ish profile.
    Mouse(page).drag(x0, y0, sign * box["width"] * 0.55, 18, duration_ms=420, moves=26, rng=random.Random(7))

    nxt = wait_thrown(page, first)
    assert nxt != first
    assert page.locator(TOP).count() == 1
    assert page.eval_on_selector(TOP, "e => e.style.transform") == ""

    (row,) = wait_swipes(server, 1)
    assert row["cardId"] == int(first)
    assert row["direction"] == direction
    assert row["input"] == "drag"
    assert row["undoneAt"] is None
    trace = json.loads(row["trace"])
    assert len(trace["t"]) >= 5 and (trace["x"][-1] > 0) == (direction == "right")
    # The counter follows the stack.
    assert page.inner_text("#remaining") == "23"


def test_short_slow_drag_springs_back(server, desktop):
    page = desktop
    first = open_deck(page, server)
    box = top_box(page)
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.45
    # 0.15 of the width (under the 0.35 threshold) at ~0.1 px/ms (under flingVelocity 0.5), then a pause.
    mouse = Mouse(page)
    mouse.drag(x0, y0, box["width"] * 0.15, 4, duration_ms=650, moves=32, hold_ms=150, release=False, rng=random.Random(3))
    moved = page.eval_on_selector(TOP, "e => e.style.transform")
    assert "translate(" in moved, f"the card should follow the pointer while dragging, transform={moved!r}"
    mouse.up()
    # The spring settles and clears the inline transform.
    page.wait_for_function("sel => { const e = document.querySelector(sel); return e && !e.style.transform && !e.classList.contains('dragging'); }", arg=TOP)
    assert top_card(page) == first
    assert_no_swipes(server, settle=1.5)
    assert top_card(page) == first
    assert page.inner_text("#remaining") == "24"


def test_short_fast_flick_is_a_fling(server, desktop):
    page = desktop
    first = open_deck(page, server)
    box = top_box(page)
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.45
    # Short (well under the distance threshold, above minFlingDistance 0.08·w) but fast: ~1.2 px/ms.
    dx = max(60, box["width"] * 0.14)
    assert dx < box["width"] * 0.35
    Mouse(page).flick(x0, y0, dx, duration_ms=50, moves=5, rng=random.Random(11))
    wait_thrown(page, first)
    (row,) = wait_swipes(server, 1)
    assert (row["cardId"], row["direction"], row["input"]) == (int(first), "right", "drag")
    trace = json.loads(row["trace"])
    assert max(trace["x"]) < box["width"] * 0.35, "the flick must be accepted by speed, not by distance"


def test_flick_with_a_burst_of_moves_is_thrown(server, desktop):
    """A loaded machine stamps moves as they arrive: 24 px of movement 0.3 ms apart. The speed rule judges
    spans of at least 24 ms, so the page throws the card and the server stores it (pair by pair, 80 px/ms
    read as a teleport and the card sprang back)."""
    page = desktop
    first = open_deck(page, server)
    box = top_box(page)
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.45
    mouse = Mouse(page)
    mouse.press(x0, y0)
    for dx, at in [(24, 0.0167), (72, 0.0336), (96, 0.0339), (150, 0.0503), (190, 0.0670)]:
        mouse.move(x0 + dx, y0 + 2, at)
    mouse.up()
    wait_thrown(page, first)
    (row,) = wait_swipes(server, 1)
    assert (row["cardId"], row["direction"], row["input"]) == (int(first), "right", "drag")
    t = json.loads(row["trace"])["t"]
    assert min(b - a for a, b in zip(t, t[1:])) < 1, f"the burst did not reach the page: {t}"


def test_steep_mouse_drag_throws_card(server, desktop):
    """A drag 60° from horizontal moves the card from its first pixels and throws it (the old shim
    ignored mouse drags steeper than 45°, taking them for a page scroll a mouse cannot make)."""
    page = desktop
    first = open_deck(page, server)
    box = top_box(page)
    x0, y0 = box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.8
    dx = box["width"] * 0.55
    Mouse(page).drag(x0, y0, dx, -dx * 3 ** 0.5, duration_ms=420, moves=26, rng=random.Random(11))
    assert wait_thrown(page, first) != first
    (row,) = wait_swipes(server, 1)
    assert (row["cardId"], row["direction"], row["input"]) == (int(first), "right", "drag")
