"""The three browser engines behind one page interface (base.Page): Chromium (Playwright), WebKit
(WebKitWebDriver, plain HTTP) and Firefox (its own WebDriver BiDi)."""
from .base import EngineError, Page, drag_points

ENGINES = ("chromium", "webkit", "firefox")


def launch(name):
    """A started browser of engine `name`: .new_page(viewport, touch=False, javascript=True), .close()."""
    if name == "chromium":
        from .chromium import Chromium
        return Chromium()
    if name == "webkit":
        from .webkit import WebKit
        return WebKit()
    if name == "firefox":
        from .firefox import Firefox
        return Firefox()
    raise ValueError(f"unknown engine {name!r}; one of {ENGINES}")


__all__ = ["ENGINES", "EngineError", "Page", "drag_points", "launch"]
