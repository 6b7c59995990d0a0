"""The owner's console in a real browser, as a new owner would use it: sign in, make a deck, add
cards (one with an uploaded image), reorder them by dragging, edit one, archive one, share the
deck, watch its results update live while somebody swipes, and close it. Fields are found by
their label text. Screenshots of each page at phone and desktop size land in artifacts/."""
import os
import struct
import subprocess
import time
import zlib
from pathlib import Path

import pytest

from deckkit import DESKTOP, PHONE, ROOT, SHOTS, TOP, poll, query, wait_thrown

BINARY = Path(os.environ.get("SWIPEDECK_BINARY") or ROOT / ".build" / "debug" / "swipedeck")
PASSWORD = "correct horse battery staple"


def png(width, height, rgb):
    """A valid PNG of one colour (8-bit RGB), written by hand."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\0" + bytes(rgb) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def add_owner(server, name):
    result = subprocess.run([str(BINARY), "owner", "add", name, "--password-stdin", "--db", str(server.db)],
                            input=PASSWORD + "\n", text=True, capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert f"Created owner '{name}'" in result.stdout


def sign_in(page, server, name):
    page.goto(server.base + "/owner")
    assert "/owner/sign-in" in page.url
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(server.base + "/owner")


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"owner-{name}.png"), full_page=True)


def card_titles(page):
    return page.eval_on_selector_all(".card-row .card-text b", "els => els.map(e => e.textContent)")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_owner_builds_shares_watches_and_closes_a_deck(server, chromium, size, tmp_path):
    add_owner(server, "olga")
    viewport = DESKTOP if size == "desktop" else PHONE
    ctx = chromium.new_context(viewport=viewport, has_touch=size == "phone")
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in(page, server, "olga")
    shot(page, f"dashboard-{size}")
    assert "Weekend getaways" in page.inner_text("main")  # the first owner adopted the sample deck

    page.get_by_role("link", name="New deck").first.click()
    page.get_by_label("Title").fill("Team lunch")
    poll(lambda: page.get_by_label("Slug").input_value() == "team-lunch", what="the slug suggested from the title")
    page.get_by_label("Description").fill("Where shall we eat on Friday?")
    page.get_by_label("Right label").fill("YUM")
    shot(page, f"new-deck-{size}")
    page.get_by_role("button", name="Create deck").click()
    page.wait_for_url(server.base + "/owner/decks/team-lunch")

    image = tmp_path / "ramen.png"
    image.write_bytes(png(64, 48, (220, 80, 40)))
    bowl = tmp_path / "bowl.png"
    bowl.write_bytes(png(48, 64, (40, 80, 220)))
    for title, with_image in (("Ramen", True), ("Tacos", False), ("Salad", False)):
        page.get_by_label("Card title").fill(title)
        if with_image:
            # Two files at once: both uploaded, one address per line, the first the cover.
            page.set_input_files("#card-image-file", [str(image), str(bowl)])
            images = page.get_by_label("Images", exact=True)
            poll(lambda: len([line for line in images.input_value().split("\n") if line.startswith("/images/")]) == 2,
                 what="two uploaded image urls")
            assert page.locator(".thumbs .thumb-item").count() == 2
        page.get_by_role("button", name="Add card").click()
        page.wait_for_url("**/owner/decks/team-lunch?added=*")
    assert card_titles(page) == ["Ramen", "Tacos", "Salad"]
    ramen = query(server, "SELECT image, moreImages FROM cards WHERE title = 'Ramen'")[0]
    assert ramen["image"].startswith("/images/") and ramen["moreImages"].startswith('["/images/'), ramen
    assert page.locator(".card-row .thumb").count() == 1

    # Drag Salad above Ramen by its grip.
    grip = page.locator(".card-row", has_text="Salad").locator(".grip").bounding_box()
    first = page.locator(".card-row").first.bounding_box()
    page.mouse.move(grip["x"] + 5, grip["y"] + 5)
    page.mouse.down()
    page.mouse.move(grip["x"] + 5, first["y"] + 2, steps=8)
    # The page saves the new order and renumbers the rows in place (no reload).
    page.mouse.up()
    poll(lambda: "Order saved" in page.locator(".reorder-status").inner_text(), what="the order saved")
    assert card_titles(page) == ["Salad", "Ramen", "Tacos"]
    shot(page, f"editor-{size}")

    # Edit Tacos (a new revision) and archive Salad.
    page.get_by_role("link", name="Edit “Tacos”").click()
    page.get_by_label("Subtitle").fill("Al pastor, Fridays only")
    page.get_by_role("button", name="Save card").click()
    page.wait_for_url("**/owner/decks/team-lunch?edited=*")
    assert "revision 2" in page.locator(".card-row", has_text="Tacos").inner_text()
    page.get_by_role("button", name="Archive “Salad”").click()
    page.wait_for_url("**/owner/decks/team-lunch?archived=*")
    assert "Salad" in page.locator("details#archived").inner_text()

    # Share: the link and its QR code.
    page.get_by_role("link", name="Share").first.click()
    assert page.get_by_label("Link").input_value().endswith("/d/team-lunch")
    assert page.locator(".qr img").evaluate("img => img.complete && img.naturalWidth > 100")
    shot(page, f"share-{size}")

    # Live results: a swipe elsewhere shows up without a reload.
    page.goto(server.base + "/owner/decks/team-lunch/results")
    poll(lambda: page.locator(".live-badge").is_visible(), what="the live badge")
    swiper = chromium.new_context(viewport=PHONE).new_page()
    swiper.goto(server.base + "/d/team-lunch")
    swiper.wait_for_selector(TOP)
    time.sleep(0.5)  # a person reads the card first (faster button presses count as suspect)
    top = swiper.eval_on_selector(TOP, "e => e.dataset.card")
    swiper.click(".ctl-like")
    wait_thrown(swiper, top)
    # Exactly one participant and one counted swipe (not any figure containing a 1).
    poll(lambda: page.locator('[data-stat="participants"]').inner_text().strip() == "1"
         and page.locator('[data-stat="swipes"]').inner_text().strip() == "1", timeout=5, what="the live update")
    shot(page, f"live-results-{size}")

    # Close the deck from its settings: the swiper's next swipe is refused.
    page.goto(server.base + "/owner/decks/team-lunch")
    page.locator("#settings summary").click()
    page.locator("#settings").get_by_label("Open: people can swipe").uncheck()
    page.locator("#settings").get_by_role("button", name="Save settings").click()
    page.wait_for_url("**/owner/decks/team-lunch?saved=1")
    assert query(server, "SELECT isOpen FROM decks WHERE slug = 'team-lunch'") == [{"isOpen": 0}]
    swiper.goto(server.base + "/d/team-lunch")
    assert "This deck is closed" in swiper.inner_text("main")
    swiper.context.close()
    ctx.close()
    assert not errors, errors
