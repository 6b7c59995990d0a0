"""The owner's live results page keeps its quality figures current (issue 39, D5): while the page
is open, people swipe through the API; κ and α leave "not enough ratings yet" and a hasty swiper is
counted as flagged without a reload, and the page shows what a reload shows."""
import json
import time
import urllib.request

from deckkit import poll
from test_owner_console import add_owner, sign_in


def post(server, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"} if body is not None else {}
    request = urllib.request.Request(server.base + path, data=data, method="POST", headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"null")


ALL = ("kappa", "alpha", "knownAnswerCards", "flaggedPeople", "peopleCounted", "peopleFlagged", "peopleExcluded")


def quality_figures(page, stats=ALL):
    return {stat: page.locator(f'[data-stat="{stat}"]').inner_text().strip() for stat in stats}


def test_kappa_and_alpha_update_live(server, desktop):
    add_owner(server, "olga")
    page = desktop
    sign_in(page, server, "olga")  # the first owner adopted the sample deck, getaways
    page.goto(server.base + "/d/getaways/results")
    poll(lambda: page.locator(".live-badge").is_visible(), what="the live badge")
    before = quality_figures(page, ("kappa", "alpha"))
    assert before["kappa"] == "not enough ratings yet", before
    assert before["alpha"] == "not enough ratings yet", before

    with urllib.request.urlopen(server.base + "/api/v1/decks/getaways/cards?limit=2", timeout=10) as response:
        cards = [card["id"] for card in json.loads(response.read())["cards"]]
    people = [post(server, "/api/v1/decks/getaways/participants")["participant"] for _ in range(3)]
    time.sleep(0.4)  # a person reads the card first (a decision right after minting counts as suspect)
    assert page.locator('[data-stat="peopleFlagged"]').inner_text().strip() == "0"
    # Three people on two cards: they agree on the first, split on the second.
    for card, directions in zip(cards, (["right", "right", "right"], ["right", "left", "left"])):
        for person, direction in zip(people, directions):
            post(server, "/api/v1/decks/getaways/swipes",
                 {"card": card, "direction": direction, "input": "button", "participant": person})
    # A fourth decides three cards faster than a person can (a burst): flagged, still counted.
    with urllib.request.urlopen(server.base + "/api/v1/decks/getaways/cards?limit=3", timeout=10) as response:
        three = [card["id"] for card in json.loads(response.read())["cards"]]
    hasty = post(server, "/api/v1/decks/getaways/participants")["participant"]
    time.sleep(0.4)
    for card in three:
        post(server, "/api/v1/decks/getaways/swipes",
             {"card": card, "direction": "left", "input": "button", "participant": hasty})
    poll(lambda: page.locator('[data-stat="allSwipes"]').inner_text().strip() == "9", timeout=5,
         what="the ranking's live update")
    poll(lambda: page.locator('[data-stat="peopleFlagged"]').inner_text().strip() == "1", timeout=5,
         what="the flagged count's live update")
    poll(lambda: quality_figures(page, ("kappa",))["kappa"] != "not enough ratings yet", timeout=5,
         what="κ's live update")
    live = quality_figures(page, ALL)
    page.reload()
    assert quality_figures(page, ALL) == live
    assert live["alpha"] != "not enough ratings yet", live
