// The deck page's pure helpers: no DOM, no storage, no clock (deck.js wires them to the page;
// Tests/js/deck-model.test.mjs runs them under node). stackState and cardsLeft transliterate the
// server's StackState (Sources/SwipedeckServer), so the page and the server agree on what it shows.

/** A request that never answers must not stall delivery or prefetch: 15 s. */
export const requestTimeoutMs = 15e3;

/** How long a fetch that failed waits before the next try, in ms. */
export const refetchDelayMs = 5e3;

/** The longest wait between delivery attempts, in seconds (Retry-After is capped to it too). */
export const maxRetrySeconds = 8;

/**
 * The longest wait before asking for a participant id again, in seconds: the server's
 * Retry-After is honoured up to it (a join budget refills in seconds, not hours).
 */
export const maxJoinWaitSeconds = 300;

/** The deck action a key names: 'undo', a direction, or '' for keys the deck leaves alone. */
export function keyAction(key) {
  if (key === 'Backspace' || key === 'z' || key === 'Z') {
    return 'undo';
  }
  if (key.startsWith('Arrow')) {
    return key.slice('Arrow'.length).toLowerCase();
  }
  return '';
}

/** Seconds before the next delivery attempt: the server's Retry-After, else 1, 2, 4, 8, 8… */
export function retrySeconds(response, attempt) {
  const serverSays = response ? Number(response.headers.get('Retry-After')) : 0;
  return Math.min(serverSays || 2 ** attempt, maxRetrySeconds);
}

/** "1 swipe waits" / "3 swipes wait": the offline message's count. */
export function waitingPhrase(count) {
  return count === 1 ? '1 swipe waits on this device' : `${count} swipes wait on this device`;
}

/** The banner's count of what waits: "2 swipes wait on this device until you are back online." */
export function pendingPhrase(count, until) {
  if (count === 0) {
    return `Swipes you make wait on this device until ${until}.`;
  }
  const swipes = count === 1 ? '1 swipe waits' : `${count} swipes wait`;
  return `${swipes} on this device until ${until}.`;
}

/**
 * The stack's state (StackState.of on the server, transliterated): `known` is the state only the
 * server can tell (noCards, closed: from the page or a refusal), else 'open'; `cardsShown` the
 * live cards on the page; `remaining` the undecided cards; `decided` this participant's
 * decisions; `quota` the deck's per-person limit or null.
 */
export function stackState(known, cardsShown, remaining, decided, quota) {
  if (known !== 'open') {
    return known;
  }
  if (cardsShown === 0 && remaining === 0) {
    return 'finished';
  }
  if (quota !== null && decided >= quota) {
    return 'limitReached';
  }
  return 'open';
}

/** The cards this person may still decide, as the counter says (StackState.cardsLeft). */
export function cardsLeft(remaining, decided, quota) {
  if (quota === null) {
    return remaining;
  }
  return Math.max(0, Math.min(remaining, quota - decided));
}

/** What a screen reader hears after the stack changed. */
export function announcement(topTitle, remaining) {
  if (!topTitle) {
    return remaining > 0 ? `${remaining} left.` : 'You are all caught up.';
  }
  return `Next: ${topTitle}. ${remaining} left.`;
}
