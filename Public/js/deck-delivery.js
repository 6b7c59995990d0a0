// The deck page's delivery: the shared queue (queue.js) sent to the server in order, one loop at a
// time in this browser, and the participant id got while the free join budget is spent — by solving
// the server's join puzzle (puzzle.js) or, without one, by asking again after the budget refilled.
// deck.js queues; this module sends and tells deck.js what the server answered.
import {
  deliveryRequest, isParticipantRefusal, isWorthRetrying, maxJoinWaitSeconds, refetchDelayMs,
  requestTimeoutMs, retrySeconds,
} from './deck-model.js';

/**
 * Delivers one deck's queue: `queue` the shared queue, `deck` the deck's slug (the Web Lock's name),
 * `api` the deck's API base, `undoBase` the URL an undo's key is appended to, `joinUrl` this page's
 * URL (a HEAD of it mints a participant id), `fetch` and `timers` {setTimeout, clearTimeout} the
 * browser's, `locks` navigator.locks or undefined, `timeout(ms)` an AbortSignal that fires after ms,
 * `joining` whether the page came without a participant id. With `solve(puzzle)` (resolving to the
 * number that solves a join puzzle, or null), the page joins by puzzle: `puzzle` the one the page came
 * with (or null), a new one POSTed for at `api`/puzzles when it has none or the server refused one, the
 * solution POSTed to `api`/join (the server answers 204 with the deck's cookie). `onReachability()` runs
 * when the server's reachability or the joining state changed, `onJoined()` (optional) once the page has
 * its participant id, `onAnswer(item, response)` after each item left the queue with the server's answer.
 */
export function createDelivery(options) {
  const { queue, deck, api, undoBase, joinUrl, fetch, timers, locks, timeout } = options;
  const { onReachability, onAnswer, solve } = options;
  let attempt = 0;
  let retryTimer = 0;
  let delivering = false;
  // The last delivery got no answer at all (the server is down or unreachable).
  let unreachable = false;
  // No participant id yet (the join budget of this network is spent): decisions wait here.
  let joining = options.joining;
  let joinTimer = 0;
  // The join puzzle to solve next, and whether the device is solving one now.
  let puzzle = options.puzzle || null;
  let solving = false;

  // One loop at a time in this browser (a Web Lock spans the tabs) sends the queue in order under
  // each item's Idempotency-Key (a retry never makes a second row). Offline, 429 and 5xx wait and
  // try the same item again; any other answer takes it off the queue.
  function deliver() {
    timers.clearTimeout(retryTimer);
    if (delivering) {
      // The running loop picks up what was queued meanwhile.
      return;
    }
    delivering = true;
    const done = () => {
      delivering = false;
    };
    if (locks) {
      locks.request('sd-deliver:' + deck, deliverQueue).finally(done);
    } else {
      deliverQueue().finally(done);
    }
  }

  function joined() {
    joining = false;
    puzzle = null;
    if (options.onJoined) {
      options.onJoined();
    }
    onReachability();
    deliver();
  }

  // With a puzzle (and a solver), solves it; else asks for this page again, headers only: a page
  // view mints a participant id within the free join budget. An answer without Retry-After came with
  // the id's cookie: what waits is delivered. Past the budget, a puzzle is asked for and solved.
  async function join() {
    if (solve && puzzle) {
      await joinByPuzzle();
      return;
    }
    const request = { method: 'HEAD', signal: timeout(requestTimeoutMs) };
    const response = await fetch(joinUrl, request).catch(() => null);
    const wait = response ? Number(response.headers.get('Retry-After')) : 0;
    if (response && response.ok && !wait) {
      joined();
      return;
    }
    if (solve && response) {
      puzzle = await freshPuzzle();
      if (puzzle) {
        await joinByPuzzle();
        return;
      }
    }
    scheduleJoin(wait || refetchDelayMs / 1e3);
  }

  // A new puzzle for this deck and this network, or null (no answer, or the deck takes none now).
  async function freshPuzzle() {
    const request = { method: 'POST', signal: timeout(requestTimeoutMs) };
    const response = await fetch(api + '/puzzles', request).catch(() => null);
    if (!response || response.status !== 201) {
      return null;
    }
    return response.json().catch(() => null);
  }

  // Solves the puzzle and sends the solution. A refusal (the puzzle expired, was used, or the work
  // asked rose meanwhile) gets a new puzzle; no answer or a busy server tries the same one again.
  async function joinByPuzzle() {
    solving = true;
    onReachability();
    const number = await solve(puzzle);
    const body = JSON.stringify({ puzzle: { ...puzzle, number } });
    const headers = { 'Content-Type': 'application/json' };
    const request = { method: 'POST', headers, body, signal: timeout(requestTimeoutMs) };
    const response = number === null ? null : await fetch(api + '/join', request).catch(() => null);
    solving = false;
    if (response && response.status === 204) {
      joined();
      return;
    }
    if (number === null || (response && !isWorthRetrying(response.status))) {
      puzzle = null;
    }
    onReachability();
    scheduleJoin(response ? retrySeconds(response, 0) : refetchDelayMs / 1e3);
  }

  function scheduleJoin(seconds) {
    timers.clearTimeout(joinTimer);
    joinTimer = timers.setTimeout(join, Math.min(seconds, maxJoinWaitSeconds) * 1e3);
  }

  // The server wants a participant id this browser does not have (none minted yet, or one it
  // does not know): the swipe stays queued while the page joins.
  async function needsParticipant(response) {
    if (response.status !== 400 && response.status !== 403) {
      return false;
    }
    // A body that is not JSON names no code: not a participant refusal.
    const answer = await response.clone().json().catch(() => null);
    return isParticipantRefusal(response.status, answer?.error?.code);
  }

  async function deliverQueue() {
    if (joining) {
      // join() delivers once the id is here.
      return;
    }
    for (let item = queue.items()[0]; item; item = queue.items()[0]) {
      // From now on an undo must ask the server.
      queue.markSent(item.key);
      const request = deliveryRequest(item, api, undoBase);
      const init = { ...request.init, signal: timeout(requestTimeoutMs) };
      const response = await fetch(request.url, init).catch(() => null);
      const status = response ? response.status : 0;
      if (unreachable !== !response) {
        unreachable = !response;
        onReachability();
      }
      if (isWorthRetrying(status)) {
        const seconds = retrySeconds(response, attempt);
        attempt++;
        retryTimer = timers.setTimeout(deliver, seconds * 1e3);
        return;
      }
      if (await needsParticipant(response)) {
        joining = true;
        onReachability();
        scheduleJoin(1);
        return;
      }
      queue.remove(item.key);
      attempt = 0;
      await onAnswer(item, response);
      onReachability();
    }
  }

  return {
    deliver,
    scheduleJoin,
    isJoining: () => joining,
    isSolving: () => solving,
    isUnreachable: () => unreachable,
  };
}
