"""The detail page's gallery (issue 17, seed 001's "photo gallery that zooms in and out"): a card's
images page sideways under the finger with a position indicator; each photo zooms (pinch, double
click) within its limits and pans when zoomed; a zoomed photo pages only once it is dragged past its
edge; mouse and keyboard page with buttons, dots and arrow keys; without scripts the photos still
page by scroll snapping and the dots link to each one."""
import re

import pytest

from deckkit import DESKTOP, PHONE, poll

# The sample deck's first card has three photos (its cover, then two more).
GALLERY_CARD = "/d/getaways/cards/1"
# The sample's fourth card has one photo.
SINGLE_CARD = "/d/getaways/cards/4"
SCALE = re.compile(r"translate\((-?[\d.]+)px, (-?[\d.]+)px\) scale\(([\d.]+)\)")


def transform(page, number):
    style = page.eval_on_selector(f"#photo-{number} .hero-img", "e => e.style.transform")
    if not style:
        return (0.0, 0.0, 1.0)
    match = SCALE.fullmatch(style)
    assert match, style
    return tuple(float(v) for v in match.groups())


def touches(cdp, kind, points):
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
        {"x": x, "y": y, "id": i, "radiusX": 4, "radiusY": 4, "force": 1} for i, (x, y) in enumerate(points)]})


def finger(page, cdp, start, end, steps=12):
    """One finger from `start` to `end` in `steps` moves about a frame apart."""
    touches(cdp, "touchStart", [start])
    for step in range(1, steps + 1):
        x = start[0] + (end[0] - start[0]) * step / steps
        y = start[1] + (end[1] - start[1]) * step / steps
        touches(cdp, "touchMove", [(x, y)])
        page.wait_for_timeout(16)
    touches(cdp, "touchEnd", [])


def pinch(page, cdp, centre, spread_from, spread_to, steps=10):
    cx, cy = centre
    touches(cdp, "touchStart", [(cx - spread_from, cy), (cx + spread_from, cy)])
    for step in range(1, steps + 1):
        spread = spread_from + (spread_to - spread_from) * step / steps
        touches(cdp, "touchMove", [(cx - spread, cy), (cx + spread, cy)])
        page.wait_for_timeout(16)
    touches(cdp, "touchEnd", [])


def shown(page):
    """(the position text, the dot marked current, the page the gallery rests on)."""
    return page.evaluate("""() => {
        const track = document.querySelector('.gallery');
        const dots = [...document.querySelectorAll('.gallery-dots a')];
        return [document.querySelector('.gallery-count').textContent,
                dots.findIndex((dot) => dot.hasAttribute('aria-current')) + 1,
                Math.round(track.scrollLeft / track.getBoundingClientRect().width) + 1];
    }""")


def settled_on(page, number):
    poll(lambda: shown(page) == [f"{number} / 3", number, number], what=f"the gallery on photo {number}: {shown(page)}")
    poll(lambda: page.evaluate(f"""() => {{
            const track = document.querySelector('.gallery');
            return Math.abs(track.scrollLeft - {number - 1} * track.getBoundingClientRect().width) < 1;
        }}"""), what="the gallery snapped to a page")


def hero_centre(page):
    box = page.eval_on_selector(".detail-hero", "e => e.getBoundingClientRect().toJSON()")
    return box, (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def open_gallery(page, server, path=GALLERY_CARD):
    page.goto(server.base + path)
    page.wait_for_load_state("networkidle")


def test_a_finger_pages_the_photos_and_the_indicator_follows(server, phone):
    page = phone
    open_gallery(page, server)
    assert shown(page) == ["1 / 3", 1, 1]
    box, (cx, cy) = hero_centre(page)
    cdp = page.context.new_cdp_session(page)
    finger(page, cdp, (cx + 120, cy), (cx - 140, cy + 6))
    settled_on(page, 2)
    assert page.evaluate("scrollY") == 0, "a sideways swipe pages the gallery, not the page"
    finger(page, cdp, (cx + 120, cy), (cx - 140, cy))
    settled_on(page, 3)
    # Past the last photo the gallery stays.
    finger(page, cdp, (cx + 120, cy), (cx - 140, cy))
    settled_on(page, 3)
    finger(page, cdp, (cx - 120, cy), (cx + 140, cy))
    settled_on(page, 2)
    # A double tap zooms the photo shown.
    page.touchscreen.tap(cx, cy)
    page.wait_for_timeout(80)
    page.touchscreen.tap(cx, cy)
    poll(lambda: transform(page, 2)[2] == pytest.approx(2.5), what="photo 2 zoomed by a double tap")
    assert transform(page, 1) == (0, 0, 1)
    page.screenshot(path="artifacts/screenshots/gallery-phone-paged.png")


def test_zoom_limits_and_a_zoomed_photo_pages_only_past_its_edge(server, phone):
    page = phone
    open_gallery(page, server)
    box, (cx, cy) = hero_centre(page)
    cdp = page.context.new_cdp_session(page)
    # A pinch from 40 to 400 px would be 10x: it stops at the most zoom (4x).
    pinch(page, cdp, (cx, cy), 20, 200)
    assert transform(page, 1)[2] == pytest.approx(4.0), "the pinch's upper bound"
    # Pinched back from 200 to 20 px: never below the photo filling its page.
    pinch(page, cdp, (cx, cy), 100, 10)
    assert transform(page, 1) == (0, 0, 1)
    pinch(page, cdp, (cx, cy), 30, 60)
    _, _, scale = transform(page, 1)
    assert scale == pytest.approx(2.0, abs=0.05)
    edge = (scale - 1) * box["width"] / 2

    # Zoomed: a drag within the photo pans it and does not page.
    finger(page, cdp, (cx, cy), (cx - edge / 2, cy), steps=8)
    x, _, _ = transform(page, 1)
    assert x == pytest.approx(-edge / 2, abs=1)
    settled_on(page, 1)

    # Dragged on a little past its right edge (under a fifth of the width): it springs back.
    finger(page, cdp, (cx, cy), (cx - edge / 2 - 0.1 * box["width"], cy), steps=8)
    assert transform(page, 1)[0] == pytest.approx(-edge, abs=1), "the pan stops at the photo's edge"
    settled_on(page, 1)
    assert transform(page, 1)[2] == pytest.approx(2.0, abs=0.05), "still zoomed"
    page.screenshot(path="artifacts/screenshots/gallery-phone-zoomed.png")

    # Dragged well past its edge: the next photo comes, and the one left behind unzooms.
    finger(page, cdp, (cx, cy), (cx - 0.45 * box["width"], cy), steps=10)
    settled_on(page, 2)
    poll(lambda: transform(page, 1) == (0, 0, 1), what="photo 1 unzoomed once paged away")
    assert "zoomed" not in (page.get_attribute("#photo-1", "class") or "")


def test_mouse_and_keyboard_page_and_double_click_zooms(server, desktop):
    page = desktop
    open_gallery(page, server)
    assert page.is_disabled(".gallery-prev"), "no previous photo before the first"
    page.click(".gallery-next")
    settled_on(page, 2)
    page.click(".gallery-dots a:nth-child(3)")
    settled_on(page, 3)
    assert page.is_disabled(".gallery-next")
    assert page.url.endswith(GALLERY_CARD), "the dots page without navigating"
    page.focus(".gallery")
    page.keyboard.press("ArrowLeft")
    settled_on(page, 2)
    page.keyboard.press("Home")
    settled_on(page, 1)
    page.keyboard.press("End")
    settled_on(page, 3)
    _, (cx, cy) = hero_centre(page)
    page.mouse.dblclick(cx, cy)
    assert transform(page, 3)[2] == pytest.approx(2.5)
    assert "zoomed" in page.get_attribute("#photo-3", "class")
    page.screenshot(path="artifacts/screenshots/gallery-desktop-zoomed.png")
    page.mouse.dblclick(cx, cy)
    assert transform(page, 3) == (0, 0, 1)


def test_one_photo_has_no_indicator_and_still_zooms(server, desktop):
    page = desktop
    open_gallery(page, server, SINGLE_CARD)
    assert page.locator(".gallery-page").count() == 1
    assert page.locator(".gallery-count, .gallery-dots, .gallery-step").count() == 0
    _, (cx, cy) = hero_centre(page)
    page.mouse.dblclick(cx, cy)
    assert transform(page, 1)[2] == pytest.approx(2.5)


@pytest.mark.parametrize("reduced_motion", ["reduce"])
def test_reduced_motion_pages_at_once(server, chromium, reduced_motion):
    context = chromium.new_context(viewport=DESKTOP, reduced_motion=reduced_motion)
    page = context.new_page()
    open_gallery(page, server)
    page.click(".gallery-next")
    # No smooth scroll: the next frame already shows photo 2.
    page.wait_for_timeout(50)
    assert page.evaluate("""() => {
        const track = document.querySelector('.gallery');
        return Math.abs(track.scrollLeft - track.getBoundingClientRect().width) < 1;
    }""")
    context.close()


def test_without_javascript_the_photos_page_and_the_dots_link(server, chromium):
    context = chromium.new_context(java_script_enabled=False, viewport=PHONE, has_touch=True)
    page = context.new_page()
    open_gallery(page, server)
    assert page.locator(".gallery-page img").count() == 3
    assert page.inner_text(".gallery-count") == "3 photos"
    assert page.eval_on_selector(".gallery", "e => getComputedStyle(e).scrollSnapType") == "x mandatory"
    assert page.locator(".gallery-step:visible").count() == 0
    page.click(".gallery-dots a:nth-child(2)")
    poll(lambda: page.evaluate("document.querySelector('.gallery').scrollLeft") > 0, what="the link scrolled to photo 2")
    assert page.url.endswith("#photo-2")
    page.screenshot(path="artifacts/screenshots/gallery-phone-nojs.png")
    context.close()
