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
    """A 390×844 touch page (has_touch without is_mobile, as DESIGN.md asks)."""
    ctx, page, errors = _page(chromium, request, viewport=PHONE, has_touch=True)
    yield page
    ctx.close()
    assert not errors, f"uncaught page errors: {errors}"
