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

/**
 * Whether a key pressed in `element` is typing (a text field, a list, editable text): the deck's keys
 * (arrows, Z) leave it alone, so a room code with a Z can be typed on the deck page.
 */
export function isTyping(element) {
  if (!element || !element.tagName) {
    return false;
  }
  if (element.isContentEditable || element.tagName === 'TEXTAREA' || element.tagName === 'SELECT') {
    return true;
  }
  const buttons = ['button', 'submit', 'reset', 'checkbox', 'radio', 'image', 'hidden'];
  return element.tagName === 'INPUT' && !buttons.includes(element.type);
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
 * decisions; `quota` the deck's per-person limit or null; `paced` a host-paced deck, whose stack
 * is the presenter's card: at its limit, or waiting for the presenter without it, never finished.
 */
export function stackState(known, cardsShown, remaining, decided, quota, paced) {
  if (known !== 'open') {
    return known;
  }
  if (paced) {
    if (quota !== null && decided >= quota) {
      return 'limitReached';
    }
    return cardsShown === 0 ? 'waiting' : 'open';
  }
  if (cardsShown === 0 && remaining === 0) {
    return 'finished';
  }
  if (quota !== null && decided >= quota) {
    return 'limitReached';
  }
  return 'open';
}

/**
 * The state only the server can tell once a deck on a big screen says whether it is `open` (its
 * stage, /d/{deck}/stage): `known` as stackState takes it, `served` the state the page came with.
 * Locked, the deck is closed (a deck without cards stays without); unlocked, a deck locked while
 * the page was open is open again, and a page that came closed (without its cards) is 'reload'.
 */
export function stageState(known, open, served) {
  if (!open) {
    return known === 'noCards' ? 'noCards' : 'closed';
  }
  if (known !== 'closed') {
    return known;
  }
  return served === 'closed' ? 'reload' : 'open';
}

/**
 * What the page says of a big screen's results (DeckStage.bannerWords on the server): shown, or shown
 * in `revealIn` seconds by the presenter's timer, or nothing.
 */
export function stageWords(revealed, revealIn) {
  if (revealed) {
    return 'The results are on the big screen.';
  }
  if (revealIn !== null && revealIn !== undefined) {
    return `The results show in ${Math.max(revealIn, 0)} s.`;
  }
  return '';
}

/**
 * What a phone on a host-paced deck says while it has no card to decide (DeckStage.waitingWords on
 * the server), from the stage: before the first card, after the last, once a card's time is up,
 * or after the person decided it; '' self-paced.
 */
export function waitingWords(stage) {
  if (!stage.paced) {
    return '';
  }
  if (stage.step === 0) {
    return 'The presenter starts soon. The first card shows here by itself.';
  }
  if (typeof stage.card !== 'number') {
    return 'That was the last card. Thank you!';
  }
  if (!stage.cardOpen) {
    return 'Time is up for this card. The next one shows here when the presenter moves on.';
  }
  return 'Thank you! The next card shows here when the presenter moves on.';
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

/** The overlay family a direction shows: its last part (diagonals show left or right). */
export function overlayFamily(direction) {
  return direction.split('_').pop();
}

/** Whether a delivery should be tried again later: no answer (status 0), 429, or a server error. */
export function isWorthRetrying(status) {
  return status === 0 || status === 429 || status > 499;
}

/** Whether an answer asks for a participant id first (none minted yet, or one the server does not know). */
export function isParticipantRefusal(status, code) {
  const refused = status === 400 || status === 403;
  return refused && (code === 'participant_required' || code === 'unknown_participant');
}

/** Whether an answer refuses what was sent: an error status, except 404 to an undo (already gone). */
export function isRefusal(status, isUndo) {
  return status >= 400 && !(isUndo && status === 404);
}

/**
 * What the page does with a delivered swipe's (or undo's) answer, `code` its error code if any:
 * `toast` says why it was refused; `putBack` brings the card back (the model refused it, 422, or the
 * deck's state did: closed, quota reached). A closed deck or a reached quota is a state of the page,
 * shown by its panel, not a toast per card.
 */
export function refusalEffect(status, code, isUndo) {
  if (!isRefusal(status, isUndo)) {
    return { toast: false, putBack: false };
  }
  const stateRefusal = code === 'deck_closed' || code === 'quota_reached';
  return { toast: !stateRefusal, putBack: !isUndo && (status === 422 || stateRefusal) };
}

/** The toast for a refusal: the server's message, else the HTTP status. */
export function refusalMessage(answer, status, isUndo) {
  const prefix = isUndo ? 'Undo failed: ' : 'Not counted: ';
  return prefix + (answer?.error?.message || 'HTTP ' + status);
}

/**
 * What the status line says after a swipe on a known-answer card: `feedback` the 201 body's
 * {correct, answer} (absent: nothing to say, ''), `labels` the deck's overlay labels.
 */
export function feedbackMessage(feedback, labels) {
  if (!feedback) {
    return '';
  }
  // A diagonal's label is its side's (overlayFamily), as NewDeck.label(for:) names it.
  const label = labels[overlayFamily(feedback.answer)];
  return feedback.correct ? `Correct: ${label}.` : `Not quite: the answer was ${label}.`;
}

/**
 * The banner above the stack while swipes cannot be sent, or '' when none shows: `offline` the
 * browser's own word, `unreachable` the last delivery got no answer, `joining` no participant id yet;
 * `waiting` the swipes queued here.
 */
export function offlineBannerText(offline, unreachable, joining, waiting) {
  if (offline) {
    return `You are offline. ${pendingPhrase(waiting, 'you are back online')}`;
  }
  if (unreachable) {
    return `The server cannot be reached. ${pendingPhrase(waiting, 'it answers')}`;
  }
  if (joining) {
    const crowd = 'Many people are joining from your network right now.';
    return `${crowd} ${pendingPhrase(waiting, 'you are in')}`;
  }
  return '';
}

/** The out-of-cards panel while more cards exist but cannot be fetched: its {title, text}. */
export function offlineDescription(offline, waiting) {
  const title = offline ? 'You are offline' : 'The server cannot be reached';
  const when = offline ? 'when this device is back online' : 'as soon as the server answers';
  const text = waiting > 0
    ? `${waitingPhrase(waiting)} and will be sent ${when}.`
    : `Your swipes are all sent. More cards come ${when}.`;
  return { title, text };
}

/**
 * The request that delivers one queued item, as {url, init} without a signal: an undo DELETEs
 * `undoBase` + the swipe's key; a swipe POSTs its body to `api`/swipes under its Idempotency-Key.
 */
export function deliveryRequest(item, api, undoBase) {
  if (item.undo) {
    return { url: undoBase + item.undo, init: { method: 'DELETE' } };
  }
  const headers = { 'Content-Type': 'application/json', 'Idempotency-Key': item.key };
  return { url: api + '/swipes', init: { method: 'POST', headers, body: JSON.stringify(item.body) } };
}

/**
 * Whether a button or key may throw the top card toward `direction`: the profile offers it
 * (`directions`), the deck takes buttons and keys (`allowButtons`) and the stack is open.
 */
export function mayActWithoutDrag(direction, directions, allowButtons, state) {
  return directions.includes(direction) && allowButtons && state === 'open';
}
