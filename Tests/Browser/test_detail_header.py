"""Seed 001's header driven by scroll (issue 17, item 2) on the detail page: at the top no bar; while
the photo scrolls away the compact bar's background fades in and its title rises; once the photo is
gone the bar stays, fixed, with title and back button. Without scripts there is no bar."""
import pytest

from deckkit import ADMIN_TOKEN

BODY = "\n".join(f"Paragraph {i}: a walk along the shore, then up through the pines to the ridge." for i in range(40))


@pytest.fixture()
def long_card(server):
    status, _, body = server.request(
        "POST", "/api/v1/decks", {"slug": "long", "title": "Long", "cards": [{"title": "Ridge walk", "body": BODY}]},
        {"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert status == 201, body
    return server.request("GET", "/api/v1/decks/long/cards")[2]["cards"][0]["id"]


STATE = """() => {
    const bar = document.querySelector('.detail-bar');
    const hero = document.querySelector('.detail-hero').getBoundingClientRect();
    const barRect = bar.getBoundingClientRect();
    return {
        alpha: Number(getComputedStyle(bar.querySelector('.detail-bar-bg')).opacity),
        rise: new DOMMatrix(getComputedStyle(bar.querySelector('.detail-bar-content')).transform).m42,
        barTop: barRect.top, barHeight: barRect.height, heroBottom: hero.bottom,
        goneAt: hero.top + scrollY + hero.height - barRect.top - barRect.height,
        titleVisible: bar.querySelector('.detail-bar-title').getBoundingClientRect().bottom <= barRect.bottom,
    };
}"""


def state_at(page, y):
    page.evaluate(f"scrollTo(0, {y})")
    page.wait_for_timeout(120)
    return page.evaluate(STATE)


def test_the_three_header_states(server, phone, long_card):
    page = phone
    page.goto(f"{server.base}/d/long/cards/{long_card}")
    page.wait_for_load_state("networkidle")
    top = state_at(page, 0)
    assert top["alpha"] == 0 and top["rise"] == pytest.approx(top["barHeight"]), top
    gone_at = top["goneAt"]
    assert gone_at > 200
    fading = state_at(page, gone_at - 40)
    assert fading["alpha"] == pytest.approx(0.5, abs=0.02), fading
    assert 0 < fading["rise"] < top["barHeight"], fading
    page.screenshot(path="artifacts/screenshots/detail-header-fading.png")
    for y in (gone_at + 2, gone_at + 600, gone_at + 1500):
        docked = state_at(page, y)
        assert docked["alpha"] == 1 and docked["rise"] == 0, docked
        assert docked["barTop"] == top["barTop"], "the bar is fixed"
        assert docked["titleVisible"]
    page.screenshot(path="artifacts/screenshots/detail-header-docked.png")
    page.click(".detail-bar-back")
    page.wait_for_url(f"**/d/long#card-{long_card}")


def test_no_bar_without_scripts(server, chromium, long_card):
    context = chromium.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(f"{server.base}/d/long/cards/{long_card}")
        assert page.locator(".detail-bar").is_hidden()
        assert page.locator("h1").inner_text() == "Ridge walk"
    finally:
        context.close()
