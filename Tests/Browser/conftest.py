"""Real-browser fixtures: Debian's /usr/bin/chromium through Playwright (never `playwright install`)."""
import pytest
from playwright.sync_api import sync_playwright

from deckkit import DESKTOP, PHONE


@pytest.fixture(scope="module")
def chromium():
    """One headless Chromium per test module (module scope: another module may run its own Playwright)."""
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        yield b
        b.close()


def _page(browser, request, **ctx_args):
    ctx = browser.new_context(**ctx_args)
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(10_000)
    request.node.page_errors = errors
    return ctx, page, errors


@pytest.fixture()
def desktop(chromium, request):
    """A 1280×800 mouse page; fails the test if the page threw an uncaught error."""
    ctx, page, errors = _page(chromium, request, viewport=DESKTOP)
    yield page
    ctx.close()
    assert not errors, f"uncaught page errors: {errors}"


@pytest.fixture()
def phone(chromium, request):
    """A 390×844 touch page (has_touch without is_mobile)."""
    ctx, page, errors = _page(chromium, request, viewport=PHONE, has_touch=True)
    yield page
    ctx.close()
    assert not errors, f"uncaught page errors: {errors}"


# ---------------------------------------------------------------- three engines (test_engines.py, test_engine_parity.py)

from engines import ENGINES, launch  # noqa: E402


@pytest.fixture(scope="module", params=ENGINES)
def engine(request):
    """One browser per engine and module: Chromium (Playwright), WebKit (WebKitWebDriver on its own Xvfb),
    Firefox (its WebDriver BiDi). Tests taking it run once per engine."""
    browser = launch(request.param)
    yield browser
    browser.close()


def _engine_page(engine, **kw):
    page = engine.new_page(**kw)
    yield page
    errors = page.page_errors()
    page.close()
    assert not errors, f"{engine.name}: uncaught page errors: {errors}"


@pytest.fixture()
def desktop_page(engine):
    """A 1280×800 mouse page of the engine (engines.base.Page); fails on uncaught page errors."""
    yield from _engine_page(engine, viewport=DESKTOP)


@pytest.fixture()
def phone_page(engine):
    """A phone-sized touch page (390×844; WebKitGTK's window is at least ~447 px wide)."""
    yield from _engine_page(engine, viewport=PHONE, touch=True)


def pytest_terminal_summary(terminalreporter):
    """Time per engine of the in-browser parity run (test_engine_parity.py), when it ran."""
    times = [value for report in terminalreporter.stats.get("passed", []) if report.when == "call"
             for key, value in report.user_properties if key == "parity_times"]
    if times:
        terminalreporter.section("parity per engine")
        for name, version, lines, compute, page, compare in times:
            terminalreporter.write_line(
                f"{name} ({version}): {lines} lines, physics.js {compute:.1f} s, page in all {page:.1f} s "
                f"(fetch, compute, post), Swift comparison {compare:.1f} s")
