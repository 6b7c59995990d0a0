"""Seed 001's tab menu in a scroll container (issue 17, item 3): the detail page's sections are tabs
whose pages follow the finger and the tab bar, with an underline tracking the scroll; keyboard tab
semantics; without scripts the sections stay an accordion."""
import random

from deckkit import touch_gesture

TABS = "() => [...document.querySelectorAll('.tab')].map(t => t.getAttribute('aria-selected'))"
# Every tab that becomes the selected one, in order, from now on.
RECORD_SELECTIONS = """() => {
  window.selections = [];
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.target.getAttribute('aria-selected') === 'true') {
        window.selections.push(record.target.id);
      }
    }
  });
  observer.observe(document.querySelector('[role=tablist]'), { subtree: true, attributeFilter: ['aria-selected'] });
}"""
UNDERLINE = "() => new DOMMatrix(getComputedStyle(document.querySelector('.tab-underline')).transform).m41"


def open_detail(page, server):
    page.goto(server.base + "/d/getaways/cards/1")
    page.wait_for_selector("[role=tablist]")
    page.wait_for_load_state("networkidle")


def test_a_finger_pages_the_sections_and_the_underline_follows(server, phone):
    page = phone
    open_detail(page, server)
    names = page.eval_on_selector_all("[role=tab]", "ts => ts.map(t => t.textContent)")
    assert names[:2] == ["About", "In this deck"], names
    assert page.evaluate(TABS)[0] == "true"
    assert page.locator("[role=tabpanel]").count() == len(names)
    start = page.evaluate(UNDERLINE)
    box = page.locator(".tab-pages").bounding_box()
    cdp = page.context.new_cdp_session(page)
    touch_gesture(cdp, box["x"] + box["width"] * 0.8, box["y"] + 30, -box["width"] * 0.6, 4, moves=14,
                  interval_ms=16, rng=random.Random(2))
    page.wait_for_function(f"() => document.querySelector('.tab-pages').scrollLeft >= {box['width'] - 2}")
    page.wait_for_function("() => document.querySelectorAll('.tab')[1].getAttribute('aria-selected') === 'true'")
    second = page.eval_on_selector_all(".tab", "ts => ts[1].offsetLeft")
    page.wait_for_function(f"() => Math.abs(({UNDERLINE})() - {second}) < 1")
    assert page.evaluate(UNDERLINE) > start
    page.screenshot(path="artifacts/screenshots/detail-tabs-phone.png")


def test_tabs_by_keyboard_and_click(server, desktop):
    page = desktop
    open_detail(page, server)
    page.focus("[role=tab][aria-selected=true]")
    page.evaluate(RECORD_SELECTIONS)
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.activeElement.id === 'tab-1'")
    page.wait_for_function("() => Math.abs(document.querySelector('.tab-pages').scrollLeft"
                           " - document.querySelector('.tab-pages').clientWidth) < 2")
    assert page.evaluate(TABS)[:2] == ["false", "true"]
    # The tab chosen stays chosen while the pages scroll to it: the page it leaves never takes it back.
    assert set(page.evaluate("() => window.selections")) == {"tab-1"}
    page.keyboard.press("Home")
    page.wait_for_function("() => document.activeElement.id === 'tab-0'")
    page.locator(".tab").nth(1).click()
    page.wait_for_function("() => document.querySelectorAll('.tab')[1].getAttribute('aria-selected') === 'true'")
    assert page.eval_on_selector_all("[role=tab]", "ts => ts.map(t => t.tabIndex)")[:2] == [-1, 0]


def test_sections_are_an_accordion_without_scripts(server, chromium):
    context = chromium.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(server.base + "/d/getaways/cards/1")
        assert page.locator("[role=tablist]").count() == 0
        assert page.locator(".accordion details").count() >= 2
    finally:
        context.close()
