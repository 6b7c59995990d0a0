"""Defects a user walkthrough found around the stack (issue 13), each in a real browser: missing and
failing images, right-to-left text, a long link, a 320 px phone, the results page's bars, reasons and
titles."""
import json
import urllib.parse

from deckkit import ADMIN_TOKEN, as_owner, open_deck
from signed_ids import pid

BROKEN = "/img/nowhere.svg"


def create_deck(server, slug, cards):
    status, _, body = server.request("POST", "/api/v1/decks", {"slug": slug, "title": slug.title(), "cards": cards},
                                     {"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert status == 201, body


def card_ids(server, slug):
    return [c["id"] for c in server.request("GET", f"/api/v1/decks/{slug}/cards?limit=50")[2]["cards"]]


def form_swipe(server, slug, who, card, direction):
    status, _, _ = server.request(
        "POST", f"/d/{slug}/swipe", raw=urllib.parse.urlencode({"card": card, "direction": direction}).encode(),
        headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": f"sd_pid={pid(who)}"})
    assert status == 200


PLACEHOLDER_SHOWN = """box => {
    const image = box.querySelector('img');
    const placeholder = box.querySelector('.placeholder');
    const rect = placeholder.getBoundingClientRect();
    return {
        imageShown: !!image && getComputedStyle(image).display !== 'none',
        fill: placeholder.querySelector('rect').getAttribute('fill'),
        size: rect.width * rect.height,
    };
}"""


def test_missing_and_failing_images_show_the_accent_placeholder(server, phone):
    create_deck(server, "broken", [
        {"title": "Broken image", "image": BROKEN, "accent": "#aa3366"},
        {"title": "No image", "accent": "#3366aa"},
    ])
    first, second = card_ids(server, "broken")
    form_swipe(server, "broken", "voter", first, "right")
    page = phone
    open_deck(page, server, "broken")
    page.wait_for_load_state("networkidle")
    for card, accent in ((first, "#aa3366"), (second, "#3366aa")):
        shown = page.eval_on_selector(f"#card-{card} .card-media", PLACEHOLDER_SHOWN)
        assert shown == {"imageShown": False, "fill": accent, "size": shown["size"]} and shown["size"] > 10_000, shown
    page.goto(f"{server.base}/d/broken/cards/{first}")
    page.wait_for_load_state("networkidle")
    shown = page.eval_on_selector(".detail-hero", PLACEHOLDER_SHOWN)
    assert not shown["imageShown"] and shown["fill"] == "#aa3366" and shown["size"] > 10_000, shown
    as_owner(page)
    page.goto(f"{server.base}/d/broken/results")
    page.wait_for_load_state("networkidle")
    thumbs = page.eval_on_selector_all(".ranked .thumb", f"boxes => boxes.map({PLACEHOLDER_SHOWN})")
    assert [t["imageShown"] for t in thumbs] == [False, False], thumbs
    assert sorted(t["fill"] for t in thumbs) == ["#3366aa", "#aa3366"]


def test_right_to_left_and_long_links_on_the_detail_page(server, phone):
    link = "https://example.com/" + "a-very-long-path-segment-" * 12
    create_deck(server, "words", [{"title": "כותרת ארוכה", "subtitle": "תת כותרת", "link": link}])
    (card,) = card_ids(server, "words")
    page = phone
    page.goto(f"{server.base}/d/words/cards/{card}")
    # With scripts the sections are tabs: "More" pages to the link.
    page.click("[role=tab]:has-text('More')")
    page.wait_for_function("() => { const p = document.querySelector('.tab-pages');"
                           " return Math.abs(p.scrollLeft - 2 * p.clientWidth) < 2; }")
    directions = page.evaluate("['h1', '.lead'].map(s => getComputedStyle(document.querySelector(s)).direction)")
    assert directions == ["rtl", "rtl"]
    widths = page.evaluate("({ page: document.scrollingElement.scrollWidth, link: document.querySelector('a.long-link')"
                           ".getBoundingClientRect().right })")
    assert widths["page"] <= 390 and widths["link"] <= 390, widths


def test_a_320_px_phone_shows_the_header_and_the_buttons(server, chromium):
    context = chromium.new_context(viewport={"width": 320, "height": 568}, has_touch=True)
    try:
        page = context.new_page()
        open_deck(page, server)
        boxes = page.evaluate("""() => Object.fromEntries(['.topbar', '.brand', '.nav', '.controls', '.deck-head']
            .map(s => [s, document.querySelector(s).getBoundingClientRect().toJSON()]))""")
        assert boxes[".topbar"]["height"] <= 60, boxes[".topbar"]
        assert boxes[".brand"]["right"] <= boxes[".nav"]["left"], "the nav runs over the logo"
        assert boxes[".controls"]["bottom"] <= 568, "the buttons fall below the fold"
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 320
    finally:
        context.close()


def rejected_swipe(server, slug, card):
    """A drag to the right claimed as a left swipe: 422 decision_mismatch, recorded as a rejection."""
    n = 20
    trace = {"t": [i * 16 for i in range(n)], "x": [i * 14.0 for i in range(n)], "y": [0.0] * n,
             "w": 320, "h": 440, "vw": 390, "vh": 844, "gx": 160, "gy": 220}
    body = {"card": card, "direction": "left", "input": "drag", "trace": trace, "participant": pid("rejected")}
    status, _, answer = server.request("POST", f"/api/v1/decks/{slug}/swipes", body)
    assert status == 422, answer
    return answer["error"]["code"]


def test_results_bars_reasons_and_long_titles(server, phone):
    long_title = "A remarkably long card title that has to wrap over several lines on a phone"
    create_deck(server, "scale", [{"title": "Loved"}, {"title": "Mixed"}, {"title": long_title}])
    loved, mixed, long_card = card_ids(server, "scale")
    # One vote per participant: a person pressing through cards in a burst would be suspect.
    for who in range(4):
        form_swipe(server, "scale", f"a{who}", loved, "right")
        form_swipe(server, "scale", f"b{who}", mixed, "right" if who % 2 else "left")
        form_swipe(server, "scale", f"c{who}", long_card, "left")
    code = rejected_swipe(server, "scale", mixed)
    page = phone
    as_owner(page)
    page.goto(f"{server.base}/d/scale/results")
    bars = page.eval_on_selector_all(".bar-fill", """rects => rects.map(r => ({
        fill: getComputedStyle(r).fill, sure: r.getBoundingClientRect().width,
        possible: r.closest('.bar').querySelector('.bar-range').getBoundingClientRect().width,
        track: r.closest('.bar').querySelector('.bar-bg').getBoundingClientRect().width,
        rate: r.closest('.bar').querySelector('.bar-value').textContent }))""")
    assert len(bars) == 3
    assert len({b["fill"] for b in bars}) == 1, f"bars in several colours: {bars}"
    # Ranked by the sure (solid) part; 4 votes of 4 still leave a pale part: no full bar from few votes.
    assert [b["sure"] for b in bars] == sorted((b["sure"] for b in bars), reverse=True), bars
    assert bars[0]["rate"] == "100% · 4 votes" and bars[0]["sure"] < 0.6 * bars[0]["track"], bars
    assert all(b["possible"] > 0.3 * b["track"] for b in bars), bars
    reason = page.locator(".rejections .reason").first
    assert reason.get_attribute("title") == code
    assert reason.inner_text() != code and len(reason.inner_text()) > 20, reason.inner_text()
    row = page.locator(".ranked tbody tr", has_text=long_title)
    boxes = row.evaluate("""r => ({ thumb: r.querySelector('.thumb').getBoundingClientRect().toJSON(),
                                    text: r.querySelector('.title-text').getBoundingClientRect().toJSON() })""")
    assert boxes["text"]["height"] > boxes["thumb"]["height"], "the title should wrap on a phone"
    assert boxes["text"]["left"] >= boxes["thumb"]["right"], f"the title wraps under the thumbnail: {boxes}"
    page.screenshot(path="artifacts/screenshots/results-phone-walkthrough.png", full_page=True)
    reasons = json.loads(page.inner_text("#rejection-reasons"))
    assert reasons[code] == reason.inner_text()
