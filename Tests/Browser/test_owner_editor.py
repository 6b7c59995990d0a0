"""The owner console as a first-time owner meets it (issue 26), in Chromium, typing with the
keyboard and pressing Enter as people do: the card editor (uploads over a throttled connection,
each file uploaded or refused with its reason, the save button held while an upload runs,
thumbnails reordered and removed, a colour picker, a confirmation with the new card in view),
drag-to-reorder without a reload and with a gap where the card lands, archived cards apart,
refusals next to their field, the tokens page (POST-redirect-GET), the share panel's warning,
the results page, signing out; and screenshots of every owner page at phone and desktop size."""
import random
import socket
import struct
import time
import zlib

import pytest

from deckkit import DESKTOP, PHONE, SHOTS, poll, query
from test_owner_console import PASSWORD, add_owner

IMAGE_TYPES_REFUSAL = "Upload a PNG, JPEG, WebP or GIF image"


def noisy_png(path, size, seed):
    """A valid RGB PNG of random pixels (barely compressible: an upload that takes a while)."""
    rng = random.Random(seed)
    raw = b"".join(b"\0" + rng.randbytes(size * 3) for _ in range(size))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
    return path


def type_into(page, label, text, exact=False):
    """Clicks the field labelled `label` and types `text` key by key (Enter as a key press)."""
    field = page.get_by_label(label, exact=exact)
    field.click()
    field.press("ControlOrMeta+a")
    field.press("Backspace")
    for i, part in enumerate(text.split("\n")):
        if i > 0:
            page.keyboard.press("Enter")
        page.keyboard.type(part)
    return field


def sign_in_typing(page, server, name):
    page.goto(server.base + "/owner")
    type_into(page, "Username", name)
    type_into(page, "Password", PASSWORD).press("Enter")
    page.wait_for_url(server.base + "/owner")


def new_deck_typing(page, server, title, slug):
    page.goto(server.base + "/owner/decks/new")
    type_into(page, "Title", title, exact=True)
    poll(lambda: page.get_by_label("Web address (slug)").input_value() == slug, what="the slug suggested from the title")
    page.get_by_label("Title", exact=True).press("Enter")
    page.wait_for_url(f"{server.base}/owner/decks/{slug}")


def add_card_typing(page, title):
    type_into(page, "Card title", title).press("Enter")
    page.wait_for_url("**/owner/decks/*?added=*")


def throttle(page, upload_bytes_per_s):
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": 40, "downloadThroughput": 4 * 1024 * 1024, "uploadThroughput": upload_bytes_per_s})
    return cdp


def shot(page, name, full_page=True):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"console-{name}.png"), full_page=full_page)


def sticky_bottom(page):
    return page.eval_on_selector(".topbar", "e => e.getBoundingClientRect().bottom")


def active_titles(page):
    return page.eval_on_selector_all("ol.card-list .card-row .card-text b", "els => els.map(e => e.textContent)")


def server_log(server):
    return server.db.with_suffix(".log").read_text(errors="replace")


def test_card_editor_uploads_each_file_holds_save_and_confirms(server, chromium, tmp_path):
    add_owner(server, "olga")
    ctx = chromium.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in_typing(page, server, "olga")
    new_deck_typing(page, server, "Team lunch", "team-lunch")

    # The accent is a colour picker, the images no textarea of paths.
    assert page.get_by_label("Accent colour").get_attribute("type") == "color"
    assert not page.locator("#card-images").is_visible()

    type_into(page, "Card title", "Ramen")
    type_into(page, "Details", "Rich broth.\nNoodles made here.")
    first = noisy_png(tmp_path / "broth.png", 220, 1)
    bad = tmp_path / "menu.png"
    bad.write_text("not an image at all, just a text file renamed\n")
    second = noisy_png(tmp_path / "noodles.png", 220, 2)
    # ~145 KB a second up: each image takes about a second.
    throttle(page, 140 * 1024)
    started = time.monotonic()
    page.set_input_files("#card-image-file", [str(first), str(bad), str(second)])
    add = page.locator("form.card-form").get_by_role("button", name="Add card")
    poll(lambda: add.is_disabled(), what="the save button held while uploading")
    poll(lambda: page.locator(".upload-list progress").count() >= 1, what="a progress bar")
    # Enter in the title while an image is on its way saves nothing.
    page.get_by_label("Card title").press("Enter")
    time.sleep(0.3)
    assert "?added=" not in page.url
    assert query(server, "SELECT COUNT(*) AS n FROM cards WHERE title = 'Ramen'") == [{"n": 0}]

    poll(lambda: page.locator(".upload-list li.ok, .upload-list li.bad").count() == 3, timeout=30, what="three files settled")
    assert time.monotonic() - started > 1.5, "the connection was not throttled"
    lines = page.locator(".upload-list li")
    assert lines.nth(0).get_attribute("class") == "ok" and "broth.png" in lines.nth(0).inner_text()
    assert lines.nth(1).get_attribute("class") == "bad"
    assert "menu.png" in lines.nth(1).inner_text() and IMAGE_TYPES_REFUSAL in lines.nth(1).inner_text()
    assert lines.nth(2).get_attribute("class") == "ok" and "noodles.png" in lines.nth(2).inner_text()
    assert page.locator(".thumbs .thumb-item").count() == 2
    assert not add.is_disabled()
    urls = page.eval_on_selector_all(".thumbs .thumb-item", "els => els.map(e => e.dataset.url)")

    # Reorder: the second image becomes the cover; then remove the one now second.
    page.get_by_role("button", name="Move image 2 earlier").click()
    assert page.eval_on_selector_all(".thumbs .thumb-item", "els => els.map(e => e.dataset.url)") == [urls[1], urls[0]]
    assert page.locator(".thumbs .thumb-item").first.locator(".cover").is_visible()
    page.get_by_role("button", name="Remove image 2").click()
    assert page.locator(".thumbs .thumb-item").count() == 1
    page.get_by_label("Accent colour").fill("#112233")

    page.get_by_label("Card title").press("Enter")
    page.wait_for_url("**/owner/decks/team-lunch?added=*")
    ramen = query(server, "SELECT id, body, image, moreImages, accent FROM cards WHERE title = 'Ramen'")[0]
    assert ramen["body"] == "Rich broth.\nNoodles made here."
    assert ramen["image"] == urls[1] and ramen["moreImages"] in ("[]", "", None), ramen
    assert ramen["accent"] == "#112233"
    # Confirmed in the card's own row, which is in view below the sticky bar.
    row = page.locator(f"#card-{ramen['id']}")
    assert "Added “Ramen” to the deck." in row.inner_text()
    box = row.bounding_box()
    assert box["y"] >= sticky_bottom(page) - 1 and box["y"] + box["height"] <= DESKTOP["height"], box
    ctx.close()
    assert not errors, errors


def test_a_blank_title_is_refused_next_to_its_field(server, chromium):
    add_owner(server, "pia")
    page = chromium.new_page(viewport=PHONE, has_touch=True)
    sign_in_typing(page, server, "pia")
    new_deck_typing(page, server, "Movie night", "movie-night")
    type_into(page, "Card title", "   ").press("Enter")
    page.wait_for_load_state()
    title = page.get_by_label("Card title")
    assert title.get_attribute("aria-invalid") == "true"
    error = page.locator("#card-title-error")
    assert error.inner_text() == "Give the card a title."
    # Right under the field, not only at the top of the page.
    assert 0 < error.bounding_box()["y"] - title.bounding_box()["y"] < 90
    assert page.locator(".form-error").evaluate("e => getComputedStyle(e).borderLeftColor") != \
        page.locator("#card-title").evaluate("e => getComputedStyle(document.body).backgroundColor")
    page.context.close()


def test_a_title_with_a_long_word_wraps_on_a_phone(server, chromium):
    """A word wider than the phone (a field test's 34-letter word) breaks inside the heading: the
    editor and the share page stay as wide as the screen."""
    add_owner(server, "lena")
    page = chromium.new_page(viewport=PHONE, has_touch=True)
    sign_in_typing(page, server, "lena")
    new_deck_typing(page, server, "Supercalifragilisticexpialidocious offsite", "supercalifragilisticexpialidocious-offsite")
    for path in ["", "/share"]:
        page.goto(f"{server.base}/owner/decks/supercalifragilisticexpialidocious-offsite{path}")
        assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"], path
        heading = page.locator("h1").first.bounding_box()
        assert heading["x"] + heading["width"] <= PHONE["width"], path
    page.context.close()


def test_drag_reorders_without_a_reload_and_opens_a_gap(server, chromium):
    add_owner(server, "quinn")
    page = chromium.new_page(viewport=DESKTOP)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in_typing(page, server, "quinn")
    new_deck_typing(page, server, "Team lunch", "team-lunch")
    for title in ("Ramen", "Tacos", "Salad", "Soup"):
        add_card_typing(page, title)
    # Archive Tacos: it leaves the numbered list for its own folded section.
    page.get_by_role("button", name="Archive “Tacos”").click()
    page.wait_for_url("**?archived=*")
    assert active_titles(page) == ["Ramen", "Salad", "Soup"]
    archived = page.locator("details#archived")
    assert archived.get_attribute("open") is not None and "Tacos" in archived.inner_text()
    page.goto(server.base + "/owner/decks/team-lunch")
    assert page.locator("details#archived").get_attribute("open") is None
    assert page.locator("details#archived summary").inner_text() == "Archived cards (1)"

    page.evaluate("window.__sameDocument = true")
    grip = page.locator(".card-row", has_text="Soup").locator(".grip").bounding_box()
    top = page.locator("ol.card-list .card-row").first.bounding_box()
    page.mouse.move(grip["x"] + 5, grip["y"] + 5)
    page.mouse.down()
    page.mouse.move(grip["x"] + 5, top["y"] + 4, steps=10)
    # While dragging, the rows it passes step aside: a gap opens where it will land.
    shifted = page.eval_on_selector_all(
        "ol.card-list .card-row:not(.dragging)", "els => els.map(e => getComputedStyle(e).transform)")
    assert all(t != "none" for t in shifted), shifted
    page.mouse.up()
    poll(lambda: "Order saved" in page.locator(".reorder-status").inner_text(), what="the order saved")
    assert page.evaluate("window.__sameDocument === true"), "the page reloaded"
    assert active_titles(page) == ["Soup", "Ramen", "Salad"]
    assert page.eval_on_selector_all("ol.card-list .num", "els => els.map(e => e.textContent)") == ["1", "2", "3"]
    order = [r["title"] for r in query(server, "SELECT title FROM cards WHERE deckId = (SELECT id FROM decks WHERE slug = 'team-lunch') ORDER BY position")]
    assert [t for t in order if t != "Tacos"] == ["Soup", "Ramen", "Salad"]
    # A second drag measures from the new order: Ramen to the end.
    grip = page.locator(".card-row", has_text="Ramen").locator(".grip").bounding_box()
    last = page.locator("ol.card-list .card-row").last.bounding_box()
    page.mouse.move(grip["x"] + 5, grip["y"] + 5)
    page.mouse.down()
    page.mouse.move(grip["x"] + 5, last["y"] + last["height"] - 2, steps=10)
    page.mouse.up()
    poll(lambda: active_titles(page) == ["Soup", "Salad", "Ramen"], what="Ramen last")
    poll(lambda: [r["title"] for r in query(server, "SELECT title FROM cards WHERE archivedAt IS NULL AND deckId = (SELECT id FROM decks WHERE slug = 'team-lunch') ORDER BY position")] == ["Soup", "Salad", "Ramen"], what="stored order")
    page.context.close()
    assert not errors, errors


def test_an_aborted_upload_logs_no_internal_error(server):
    """An owner leaving the page mid-upload closes the connection: nothing for the operator to chase."""
    head = (b"POST /api/v1/images HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test-admin-token\r\n"
            b"Content-Type: image/png\r\nContent-Length: 200000\r\n\r\n")
    part = b"\x89PNG\r\n\x1a\n" + b"\0" * 60_000
    for reset in (False, True, False, True):
        s = socket.create_connection(("127.0.0.1", server.port))
        s.sendall(head + part)
        time.sleep(0.2)
        if reset:
            # SO_LINGER 0: the close sends a reset, as a browser aborting an upload may.
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()
        time.sleep(0.2)
    time.sleep(0.5)
    status, _, _ = server.request("GET", "/healthz")
    assert status == 200
    assert "internal error" not in server_log(server)
    assert query(server, "SELECT COUNT(*) AS n FROM images") == [{"n": 0}], "no half image stored"


def test_tokens_slug_share_import_results_and_sign_out(server, chromium):
    add_owner(server, "rae")
    page = chromium.new_page(viewport=PHONE, has_touch=True)
    console = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    sign_in_typing(page, server, "rae")

    # The slug's pattern compiles in today's Chromium, so the browser checks it before sending.
    page.goto(server.base + "/owner/decks/new")
    type_into(page, "Title", "Quiz", exact=True)
    type_into(page, "Web address (slug)", "Bad Slug!").press("Enter")
    time.sleep(0.3)
    assert page.url.endswith("/owner/decks/new")
    assert page.get_by_label("Web address (slug)").evaluate("e => e.validity.patternMismatch")
    assert not [m for m in console if "pattern" in m.lower()], console

    # Tokens: created with Enter, shown once; a reload creates no second one and shows it no more.
    page.goto(server.base + "/owner/tokens")
    type_into(page, "Token name", "nightly export").press("Enter")
    page.wait_for_url(server.base + "/owner/tokens")
    assert page.locator("#new-token").inner_text().startswith("sdt_")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    page.reload()
    assert page.locator("#new-token").count() == 0
    assert query(server, "SELECT COUNT(*) AS n FROM apiTokens") == [{"n": 1}]

    # A clean import preview is a success, not an error.
    page.goto(server.base + "/owner/decks/getaways")
    page.locator("summary", has_text="Import cards").click()
    type_into(page, "Or paste it here", "title,subtitle\nPho,warm\nCurry,mild")
    page.get_by_role("button", name="Preview").click()
    assert page.locator(".form-error").count() == 0
    assert "2 rows, all ready to add" in page.locator(".notice.ok").inner_text()
    page.get_by_role("button", name="Add 2 cards").click()
    page.wait_for_url("**?imported=2*")
    assert "Imported 2 cards" in page.locator(".card-row.changed").inner_text()

    # Share: the link is this computer's loopback address; the panel says so and names --public-url.
    page.goto(server.base + "/owner/decks/getaways/share")
    warning = page.locator(".reach-warning")
    assert "cannot open it" in warning.inner_text() and "--public-url" in warning.inner_text()
    page.get_by_role("button", name="Copy").click()
    poll(lambda: "copied" in page.locator(".copy-status").inner_text().lower(), what="copied feedback")

    # Results: the owner's navigation stays; one participant is "participant".
    page.goto(server.base + "/owner/decks/getaways/results")
    assert page.locator(".nav").get_by_role("link", name="API tokens").is_visible()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]

    page.locator(".nav").get_by_role("button", name="Sign out").click()
    page.wait_for_url("**/owner/sign-in?signed-out")
    assert "You are signed out." in page.locator("main").inner_text()
    page.context.close()


def test_results_table_fits_its_column_on_desktop(server, chromium):
    add_owner(server, "sam")
    page = chromium.new_page(viewport=DESKTOP)
    sign_in_typing(page, server, "sam")
    page.goto(server.base + "/owner/decks/getaways/results")
    fits = page.eval_on_selector("table.ranked", "t => t.scrollWidth <= t.parentElement.clientWidth")
    assert fits
    assert page.locator("details.kinds-details").get_attribute("open") is None
    page.context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_owner_page_screenshots(server, chromium, size, tmp_path):
    add_owner(server, "tess")
    viewport = DESKTOP if size == "desktop" else PHONE
    page = chromium.new_page(viewport=viewport, has_touch=size == "phone")
    sign_in_typing(page, server, "tess")
    shot(page, f"dashboard-{size}")
    page.goto(server.base + "/owner/decks/new")
    shot(page, f"new-deck-{size}")
    page.goto(server.base + "/owner/decks/getaways")
    card = query(server, "SELECT id FROM cards WHERE deckId = (SELECT id FROM decks WHERE slug = 'getaways') ORDER BY position LIMIT 2")
    page.locator(f"#card-{card[1]['id']}").get_by_role("button", name="Archive").click()
    page.wait_for_url("**?archived=*")
    shot(page, f"editor-archived-view-{size}", full_page=False)  # what the owner sees after the redirect
    shot(page, f"editor-archived-{size}")
    page.goto(server.base + f"/owner/decks/getaways/cards/{card[0]['id']}")
    image = noisy_png(tmp_path / "photo.png", 64, 3)
    bad = tmp_path / "notes.png"
    bad.write_text("plain text\n")
    page.set_input_files("#card-image-file", [str(image), str(bad)])
    poll(lambda: page.locator(".upload-list li.ok, .upload-list li.bad").count() == 2, what="uploads settled")
    shot(page, f"card-edit-uploads-{size}")
    type_into(page, "Card title", " ").press("Enter")
    page.wait_for_load_state()
    shot(page, f"card-edit-error-{size}")
    type_into(page, "Card title", "Mirror Lake, edited").press("Enter")
    page.wait_for_url("**?edited=*")
    shot(page, f"editor-edited-view-{size}", full_page=False)
    page.goto(server.base + "/owner/decks/getaways")
    page.locator("summary", has_text="Import cards").click()
    type_into(page, "Or paste it here", "title\nPho")
    page.get_by_role("button", name="Preview").click()
    shot(page, f"import-preview-{size}")
    page.get_by_role("button", name="Add 1 card", exact=True).click()
    page.wait_for_url("**?imported=*")
    shot(page, f"editor-imported-view-{size}", full_page=False)
    page.goto(server.base + "/owner/decks/getaways/share")
    shot(page, f"share-{size}")
    page.goto(server.base + "/owner/decks/getaways/results")
    shot(page, f"results-{size}")
    page.goto(server.base + "/owner/tokens")
    type_into(page, "Token name", "export").press("Enter")
    page.wait_for_url(server.base + "/owner/tokens")
    shot(page, f"tokens-{size}")
    page.goto(server.base + "/owner/password")
    shot(page, f"password-{size}")
    page.locator(".nav").get_by_role("button", name="Sign out").click()
    page.wait_for_url("**/owner/sign-in?signed-out")
    shot(page, f"signed-out-{size}")
    page.context.close()


def test_up_and_down_labels_show_only_for_a_profile_that_decides_them(server, chromium):
    """A deck that swipes left and right has no Up or Down to name: the labels appear when the owner
    picks the eight-direction profile, and go again with another."""
    add_owner(server, "uma")
    page = chromium.new_page(viewport=DESKTOP)
    sign_in_typing(page, server, "uma")
    page.goto(server.base + "/owner/decks/new")
    up = page.get_by_label("Up label")
    assert page.get_by_label("Left label").is_visible()
    assert not up.is_visible()
    page.locator("input[name=profile][value=eightway]").check()
    assert up.is_visible() and page.get_by_label("Down label").is_visible()
    page.locator("input[name=profile][value=classic]").check()
    assert not up.is_visible()
    page.close()


def test_a_card_added_with_a_known_answer_shows_a_badge(server, chromium):
    """The "Add a card" form offers the Known answer the Edit form has; the list marks such cards."""
    add_owner(server, "kai")
    page = chromium.new_page(viewport=DESKTOP)
    sign_in_typing(page, server, "kai")
    page.goto(server.base + "/owner/decks/getaways")
    assert page.locator(".card-row .known-answer").count() == 0
    form = page.locator("form.card-form")
    form.get_by_label("Known answer").select_option("left")
    form.get_by_label("Card title").click()
    page.keyboard.type("Blurry photo")
    page.keyboard.press("Enter")
    page.wait_for_url("**/owner/decks/getaways?added=*")
    assert query(server, "SELECT answer FROM cards WHERE title = 'Blurry photo'") == [{"answer": "left"}]
    badges = page.locator(".known-answer")
    assert badges.count() == 1
    assert "NOPE" in badges.first.inner_text()
    page.screenshot(path="/tmp/rp28-badge.png")
