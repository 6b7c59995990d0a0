"""The deck's Webhooks page in Chromium, typed as an owner types: a URL on the server's own
network is refused next to the field (the server runs without --webhook-allow-private), a public
one is added with Enter, its secret is shown once, and Disable disables it."""
import sqlite3

from test_owner_console import add_owner, sign_in


def test_owner_adds_and_disables_a_webhook(make_server, chromium):
    server = make_server()
    add_owner(server, "hilda")
    page = chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.set_default_timeout(10_000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in(page, server, "hilda")
    page.goto(server.base + "/owner/decks/getaways")
    page.get_by_role("link", name="Webhooks").click()
    page.wait_for_url(server.base + "/owner/decks/getaways/webhooks")

    page.get_by_label("deck.decided").check()
    url = page.get_by_label("URL")
    url.click()
    page.keyboard.type("http://10.0.0.5/hooks")
    page.keyboard.press("Enter")
    page.wait_for_load_state()
    error = page.locator("#url-error")
    assert "10.0.0.5 is a private address" in error.inner_text()
    assert page.get_by_label("URL").get_attribute("aria-describedby") == "url-error"
    assert page.get_by_label("URL").input_value() == "http://10.0.0.5/hooks"  # kept for correcting
    assert page.get_by_label("deck.decided").is_checked()

    url = page.get_by_label("URL")
    url.fill("")
    url.click()
    page.keyboard.type("https://93.184.216.34/hooks/swipedeck")
    page.keyboard.press("Enter")
    page.wait_for_url(server.base + "/owner/decks/getaways/webhooks")
    secret = page.locator("#new-secret").inner_text()
    assert secret.startswith("whsec_") and len(secret) == 70
    assert server.sql("SELECT url, events FROM webhooks") == [("https://93.184.216.34/hooks/swipedeck", "deck.decided")]
    assert "No deliveries yet." in page.inner_text("main")
    # The add button stands apart from the list's heading; the signature check is on the page, in steps.
    button = page.get_by_role("button", name="Add webhook").bounding_box()
    heading = page.get_by_role("heading", name="Your webhooks").bounding_box()
    assert heading["y"] - (button["y"] + button["height"]) >= 24, (button, heading)
    assert "README" not in page.inner_text("main")
    page.get_by_text("How your receiver checks that a delivery is genuine").click()
    steps = page.locator(".signature-check li")
    assert steps.count() == 3 and "X-Swipedeck-Signature" in steps.nth(2).inner_text()

    page.reload()
    assert page.locator("#new-secret").count() == 0  # shown once
    page.get_by_role("button", name="Disable").click()
    page.wait_for_url(server.base + "/owner/decks/getaways/webhooks")
    assert "Disabled" in page.inner_text("main")
    assert server.sql("SELECT COUNT(*) FROM webhooks WHERE disabledAt IS NOT NULL") == [("1",)]
    assert errors == []


WIDE = "() => [document.scrollingElement.scrollWidth, innerWidth]"
# The innermost elements reaching past the viewport's right edge (what to fix when the page is too wide).
PAST = """() => [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5
    && ![...e.children].some((c) => c.getBoundingClientRect().right > innerWidth + 0.5))
    .slice(0, 6).map((e) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)"""


def test_owner_pages_fit_a_phone_without_scrolling_sideways(server, chromium):
    """Issue 39 D8: on a 390 px and a 320 px phone the webhooks page (a hook with every event and a failed
    delivery) and every signed-in owner page, top menu included, are no wider than the screen."""
    add_owner(server, "hilda")
    deck = server.sql("SELECT id FROM decks WHERE slug = 'getaways'")[0][0]
    card = server.sql(f"SELECT MIN(id) FROM cards WHERE deckId = {deck}")[0][0]
    events = "card.decided,card.undecided,deck.decided,deck.undecided,participant.flagged,room.matched,swipe.created"
    with sqlite3.connect(server.db) as db:
        db.execute("INSERT INTO webhooks (id, deckId, url, events, secret, createdAt) VALUES "
                   "(1, ?, 'https://hooks.example.org/swipedeck/receiver/endpoint', ?, 'whsec_x', 0)", (deck, events))
        db.execute("INSERT INTO webhookDeliveries (id, hookId, deckId, event, at, data, status, attempts, createdAt, "
                   "dueAt, nextAttemptAt, lastAttemptAt, lastStatus, lastError) VALUES ('d1', 1, ?, 'card.decided', 0, "
                   "'{}', 'pending', 3, 0, 0, 4102444800, 0, 503, 'connection refused by the receiver')", (deck,))
    context = chromium.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        page = context.new_page()
        sign_in(page, server, "hilda")
        pages = ["/owner", "/owner/decks/getaways", "/owner/decks/getaways/webhooks", "/owner/tokens", "/owner/password",
                 "/owner/decks/new",
                 "/owner/decks/getaways/share", "/owner/decks/getaways/codes", "/owner/decks/getaways/results",
                 "/owner/decks/getaways/cards/" + str(card)]
        for width in (390, 320):
            page.set_viewport_size({"width": width, "height": 700})
            for path in pages:
                page.goto(server.base + path)
                scroll, view = page.evaluate(WIDE)
                assert scroll <= view, f"{path} at {width} px is {scroll} px wide: {page.evaluate(PAST)}"
                logo = page.locator(".topbar .logo").bounding_box()
                assert logo["width"] == 30 and logo["x"] >= 0, f"{path} at {width} px squeezes the logo: {logo}"
    finally:
        context.close()
