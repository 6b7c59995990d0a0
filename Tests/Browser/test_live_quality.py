"""The owner's live results page keeps its quality figures current (issue 39, D5): while the page
is open, people swipe through the API; κ and α leave "not enough ratings yet" without a reload, and
show what a reload shows."""
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


def quality_figures(page, stats=("kappa", "alpha", "knownAnswerCards", "flaggedPeople")):
    return {stat: page.locator(f'#quality [data-stat="{stat}"]').inner_text().strip() for stat in stats}


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
    # Three people on two cards: they agree on the first, split on the second.
    for card, directions in zip(cards, (["right", "right", "right"], ["right", "left", "left"])):
        for person, direction in zip(people, directions):
            post(server, "/api/v1/decks/getaways/swipes",
                 {"card": card, "direction": direction, "input": "button", "participant": person})
    poll(lambda: page.locator('[data-stat="swipes"]').inner_text().strip() == "6", timeout=5,
         what="the ranking's live update")
    poll(lambda: quality_figures(page, ("kappa",))["kappa"] != "not enough ratings yet", timeout=5,
         what="κ's live update")
    live = quality_figures(page)
    page.reload()
    assert quality_figures(page) == live
    assert live["alpha"] != "not enough ratings yet", live
