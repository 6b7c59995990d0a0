// The delivery queue of one deck, shared by every tab of a browser through Web Storage. No DOM: the
// deck page (deck.js) passes localStorage in; the node tests pass a Map-backed stand-in.

// An Idempotency-Key: randomUUID needs a secure context (https or localhost); a phone on the LAN
// reaching a self-hosted http:// server has only getRandomValues.
export function newIdempotencyKey() {
  if (crypto.randomUUID) {
    return crypto.randomUUID();
  }
  const bytes = [...crypto.getRandomValues(new Uint8Array(16))];
  return bytes.map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Swipes waiting in the queue that no undo cancels: {key, body}, oldest first. */
export function waitingSwipes(items) {
  const undone = new Set(items.filter((item) => item.undo).map((item) => item.undo));
  return items.filter((item) => item.body && !undone.has(item.key));
}

/**
 * Unacknowledged requests of one deck in localStorage, oldest first: {key, body} a swipe to POST,
 * {key, undo} a swipe to DELETE; `sent` marks one whose POST was attempted (its undo must then ask
 * the server). Beside it, the cards this browser decided (queued or acknowledged; an undo takes
 * one out), so a tab opened earlier drops cards decided in another tab even if it missed the moment
 * they were queued. Every tab of the browser reads and writes the same two keys.
 */
export function createSharedQueue(storage, deck) {
  const queueKey = 'sd-queue:' + deck;
  const decidedKey = 'sd-decided:' + deck;

  function items() {
    return JSON.parse(storage.getItem(queueKey) || '[]');
  }

  function save(newItems) {
    storage.setItem(queueKey, JSON.stringify(newItems));
  }

  function decided() {
    return new Set(JSON.parse(storage.getItem(decidedKey) || '[]'));
  }

  function saveDecided(cardIds) {
    storage.setItem(decidedKey, JSON.stringify([...cardIds]));
  }

  // Throws when storage is full: the caller keeps the card.
  function addSwipe(key, body) {
    save([...items(), { key, body }]);
    const cardIds = decided();
    cardIds.add(body.card);
    saveDecided(cardIds);
  }

  // A swipe never sent and its undo cancel out; one that was sent gets a DELETE queued behind it,
  // so it also waits out being offline and never overtakes its POST.
  function addUndo(key, cardId) {
    const current = items();
    const neverSent = current.some((item) => item.key === key && !item.sent);
    if (neverSent) {
      save(current.filter((item) => item.key !== key));
    } else {
      save([...current, { key: newIdempotencyKey(), undo: key }]);
    }
    const cardIds = decided();
    cardIds.delete(cardId);
    saveDecided(cardIds);
  }

  function markSent(key) {
    save(items().map((item) => (item.key === key ? { ...item, sent: 1 } : item)));
  }

  function remove(key) {
    save(items().filter((item) => item.key !== key));
  }

  // The server just rendered these cards as undecided: unless a swipe of one still waits here, the
  // server is right (an undo elsewhere, another participant) and the ledger forgets it.
  function trustServer(cardIds) {
    const waiting = new Set(waitingSwipes(items()).map((item) => item.body.card));
    const ledger = decided();
    for (const cardId of cardIds) {
      if (!waiting.has(cardId)) {
        ledger.delete(cardId);
      }
    }
    saveDecided(ledger);
  }

  /** Card ids this browser decided: waiting swipes and the ledger. */
  function decidedCards() {
    const cardIds = decided();
    for (const item of waitingSwipes(items())) {
      cardIds.add(item.body.card);
    }
    return cardIds;
  }

  function isOurs(storageKey) {
    return storageKey === queueKey || storageKey === decidedKey || storageKey === null;
  }

  return { items, addSwipe, addUndo, markSent, remove, trustServer, decidedCards, isOurs };
}
