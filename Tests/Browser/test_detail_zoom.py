"""The detail page's photo (issue 13): two fingers pinch it bigger, a zoomed photo pans under one
finger or the mouse and never past its edges, a double click toggles the zoom."""
import re

import pytest

SCALE = re.compile(r"translate\((-?[\d.]+)px, (-?[\d.]+)px\) scale\(([\d.]+)\)")


def transform(page):
    match = SCALE.fullmatch(page.eval_on_selector("#photo-1 .hero-img", "e => e.style.transform"))
    assert match, page.eval_on_selector("#photo-1 .hero-img", "e => e.style.transform")
    return tuple(float(v) for v in match.groups())


def touches(cdp, kind, points):
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
        {"x": x, "y": y, "id": i, "radiusX": 4, "radiusY": 4, "force": 1} for i, (x, y) in enumerate(points)]})


def hero_box(page):
    return page.eval_on_selector(".detail-hero", "e => e.getBoundingClientRect().toJSON()")


def test_pinch_zooms_and_one_finger_pans_within_the_edges(server, phone):
    page = phone
    page.goto(server.base + "/d/getaways/cards/1")
    page.wait_for_load_state("networkidle")
    box = hero_box(page)
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)
    touches(cdp, "touchStart", [(cx - 30, cy), (cx + 30, cy)])
    for step in range(1, 11):
        spread = 30 + 6 * step
        touches(cdp, "touchMove", [(cx - spread, cy), (cx + spread, cy)])
        page.wait_for_timeout(16)
    touches(cdp, "touchEnd", [])
    _, _, scale = transform(page)
    assert scale == pytest.approx(3.0, abs=0.05), "a pinch from 60 to 180 px triples the photo"
    assert "zoomed" in page.get_attribute(".gallery-page", "class")

    # One finger drags the zoomed photo left, far past its edge: it stops where its right edge is.
    touches(cdp, "touchStart", [(cx, cy)])
    for step in range(1, 13):
        touches(cdp, "touchMove", [(cx - 60 * step, cy + 5 * step)])
        page.wait_for_timeout(16)
    touches(cdp, "touchEnd", [])
    x, y, scale = transform(page)
    assert x == pytest.approx(-(scale - 1) * box["width"] / 2, abs=0.5), (x, box)
    assert 0 < y <= (scale - 1) * box["height"] / 2 + 0.5
    assert page.evaluate("scrollY") == 0, "a zoomed photo takes the finger: the page stays"


def test_mouse_pans_a_zoomed_photo_and_a_double_click_resets(server, desktop):
    page = desktop
    page.goto(server.base + "/d/getaways/cards/1")
    page.wait_for_load_state("networkidle")
    box = hero_box(page)
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.dblclick(cx, cy)
    _, _, scale = transform(page)
    assert scale > 1
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx + 80, cy + 40, steps=8)
    page.mouse.up()
    x, y, _ = transform(page)
    assert (x, y) == (pytest.approx(80, abs=1), pytest.approx(40, abs=1))
    page.mouse.dblclick(cx, cy)
    assert transform(page) == (0, 0, 1)
