#!/usr/bin/env python3
"""Seeds N swipes into a deck of a swipedeck database, directly with sqlite3 (for the results
benchmark: a deck with 100,000 swipes in about a second instead of minutes through the API).

    python3 scripts/bench_seed.py DB [--deck getaways] [--swipes 100000]

Rows look like real ones: one live swipe per participant and card, a compact trace, release
velocity, a decision time, about 2 % suspect and 1 % undone. Each card gets its own like rate,
so the ranking is meaningful. Safe while the server runs (WAL; one short write transaction).
"""
import argparse
import json
import random
import sqlite3
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("--deck", default="getaways")
    ap.add_argument("--swipes", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    c = sqlite3.connect(a.db, timeout=30)
    c.execute("PRAGMA foreign_keys = ON")
    row = c.execute("SELECT id FROM decks WHERE slug = ?", (a.deck,)).fetchone()
    if not row:
        raise SystemExit(f"no deck {a.deck!r} in {a.db}")
    deck_id = row[0]
    cards = [r[0] for r in c.execute("SELECT id FROM cards WHERE deckId = ? ORDER BY position", (deck_id,))]
    like_rate = {card: rng.uniform(0.15, 0.85) for card in cards}
    trace = json.dumps({"t": [0, 16.4, 33.1, 50.2, 66.0, 83.3], "x": [0, 8, 30, 70, 120, 160], "y": [0, 1, 2, 2, 3, 3],
                        "w": 320, "h": 440, "vw": 390, "vh": 844, "gx": 160, "gy": 300}, separators=(",", ":"))
    now = time.time()
    t0 = time.perf_counter()
    participants, swipes = [], []
    for i in range(a.swipes):
        p, card = f"seed-{i // len(cards)}", cards[i % len(cards)]
        if i % len(cards) == 0:
            participants.append((p, "api", now))
        right = rng.random() < like_rate[card]
        swipes.append((
            f"seed-{deck_id}-{i}", deck_id, card, p, "right" if right else "left", "drag", trace,
            (1 if right else -1) * rng.uniform(0.3, 2.5), rng.uniform(-0.2, 0.2), rng.uniform(80, 400),
            rng.uniform(300, 6000), 1 if rng.random() < 0.02 else 0, "%016x" % rng.getrandbits(64),
            now - rng.uniform(0, 86400), now if rng.random() < 0.01 else None))
    # Columns of migration v3: the card's revision, and why a suspect row is suspect.
    swipes = [row + (1, "machine_like_trace" if row[11] else None) for row in swipes]
    with c:
        c.executemany("INSERT OR IGNORE INTO participants (id, kind, createdAt) VALUES (?, ?, ?)", participants)
        c.executemany("""INSERT INTO swipes (id, deckId, cardId, participantId, direction, input, trace, velocityX, velocityY,
                         durationMs, decisionMs, suspect, requestHash, createdAt, undoneAt, cardRevision, suspectReason)
                         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", swipes)
        # The benchmark reads the results page without signing in.
        c.execute("UPDATE decks SET resultsPublic = 1 WHERE id = ?", (deck_id,))
    total = c.execute("SELECT COUNT(*) FROM swipes WHERE deckId = ?", (deck_id,)).fetchone()[0]
    print(f"seeded {a.swipes} swipes into {a.deck} ({total} in the deck) in {time.perf_counter() - t0:.2f} s")


if __name__ == "__main__":
    main()
