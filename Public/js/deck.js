// Swipedeck gesture shim: enhances the server-rendered stack (only the deck page loads it). Every
// physics number comes from the profile JSON the server embeds (#swipe-profile) through physics.js;
// the page's modules only wire the DOM. The server's markup and CSS do what they can without a
// script: the stack's depth transforms and touch-action (/css/stack/{profile}.css), a tap on a card
// opening its detail view (a card-sized link), forms for every button.
//
// This file holds the page's state (the count left, the decisions, the fetch cursor, the stack's
// state) and the decisions: a throw, an undo, a refusal. It composes the parts, each a factory
// given its collaborators: the stack's DOM and motion (deck-stack.js), the drag (deck-gesture.js),
// the buttons and keys (deck-controls.js), the words around the stack (deck-panels.js), the
// delivery of the queue (deck-delivery.js over queue.js), the status line (toast.js). The pure
// helpers are deck-model.js. The browser's parts are gathered once, at the end of this file.
import {
  cardsLeft, feedbackMessage, isRefusal, mayActWithoutDrag, refetchDelayMs, refusalEffect, refusalMessage,
  requestTimeoutMs, stackState, stageState, stageWords, waitingWords,
} from './deck-model.js';
import { createControls } from './deck-controls.js';
import { createDelivery } from './deck-delivery.js';
import { createDragController } from './deck-gesture.js';
import { createPanels } from './deck-panels.js';
import { digestFor, solvePuzzle } from './puzzle.js';
import { createStackView } from './deck-stack.js';
import { createSharedQueue, newIdempotencyKey, waitingSwipes } from './queue.js';
import { rooted } from './root.js';
import { createToast } from './toast.js';

/**
 * Wires one deck page: `root` the server's <section class="deck-page"> (its data-* attributes name
 * the deck, the API base, the fetch cursor and the count left), `profile` the swipe profile, and the
 * browser's parts: `window` (events, the viewport, the connection), `document`, `storage`
 * (localStorage), `fetch`, `clock` {now, frame, cancelFrame, mark} (performance.now, the animation
 * frames, performance.mark), `timers` {setTimeout, clearTimeout}, `timeout(ms)` (AbortSignal.timeout),
 * `locks` (navigator.locks or undefined), `location`, `reduceMotion`, `random()` and `digest(bytes)`
 * (SHA-256, for the join puzzle).
 */
export function createDeckPage(root, profile, browser) {
  const { window, document, storage, fetch, clock, timers, timeout, locks, location } = browser;
  const { reduceMotion, random, digest } = browser;
  const settings = root.dataset;
  const stack = root.querySelector('#stack');
  const say = createToast(root.querySelector('.toast'));
  const queue = createSharedQueue(storage, settings.deck);
  const view = createStackView({
    stack,
    template: root.querySelector('#card-template'),
    profile,
    clock,
    viewport: () => ({ width: window.innerWidth, height: window.innerHeight }),
    reduceMotion,
    random,
  });
  const panels = createPanels({
    root,
    storage,
    hintKey: 'sd-hint-seen:' + settings.deck,
    springScale: view.springScale,
  });
  // Cards thrown on this page, newest last: {element, key}.
  const thrown = [];

  let undoingOnServer = false;
  let shownAt = clock.now();
  let cursor = settings.cursor;
  let remaining = Number(settings.remaining);
  let fetching = false;
  let fetchFailed = false;
  // What only the server tells (noCards, closed), else 'open'; a deck_closed refusal closes it here.
  let knownState = settings.state === 'noCards' || settings.state === 'closed' ? settings.state : 'open';
  let state = settings.state;
  const quota = settings.quota === '' ? null : Number(settings.quota);
  let decided = Number(settings.decided);
  // Host-paced (data-paced; the stage says so from then on): the stack is the presenter's card.
  const paced = settings.paced === 'true';
  // Past the free join budget the page comes with a join puzzle, solved while the first card is read.
  const puzzleScript = root.querySelector('#join-puzzle');
  const puzzle = puzzleScript ? JSON.parse(puzzleScript.textContent) : null;

  const delivery = createDelivery({
    queue,
    deck: settings.deck,
    api: settings.api,
    undoBase: rooted('/api/v1/swipes/'),
    joinUrl: location.pathname,
    fetch,
    timers,
    locks,
    timeout,
    joining: settings.state === 'joining',
    puzzle,
    solve: (issued) => solvePuzzle(issued, digest),
    // Tests and the page benchmark read how long joining took.
    onJoined: () => {
      clock.mark('deck-joined');
      followStage();
    },
    onReachability: showOfflineBanner,
    onAnswer: explainRefusal,
  });
  const drag = createDragController({
    stack,
    events: window,
    view,
    profile,
    frames: { request: clock.frame, cancel: clock.cancelFrame },
    timers,
    isOpen: () => state === 'open',
    onThrow: (element, direction, velocity, x, y, trace) => {
      fling(element, direction, velocity, x, y, 'drag', trace, trace);
    },
  });
  const controls = createControls({
    root,
    controls: root.querySelector('.controls'),
    events: window,
    document,
    profile,
    reduceMotion,
    springScale: view.springScale,
    act,
  });

  function announce() {
    const top = view.liveCards()[0];
    const topTitle = top ? top.querySelector('.card-title').textContent : '';
    panels.announce(topTitle, cardsLeft(remaining, decided, quota));
  }

  // Cards this browser already decided (in this tab, another tab, or an earlier visit whose swipe
  // still waits) leave the stack: how many did.
  function dropDecided() {
    return view.drop(queue.decidedCards());
  }

  function showOfflineBanner() {
    const waiting = waitingSwipes(queue.items()).length;
    const offline = !window.navigator.onLine;
    // A puzzle being solved with nothing waiting on it needs no words: it takes about a second.
    const joining = delivery.isJoining() && (waiting > 0 || !delivery.isSolving());
    panels.showOfflineBanner(offline, delivery.isUnreachable(), joining, waiting);
  }

  function layout() {
    const cards = view.layoutDepths();
    remaining = Math.max(remaining, 0);
    panels.showCount(cardsLeft(remaining, decided, quota));
    const outOfCards = !cards[0];
    const next = stackState(knownState, cards.length, remaining, decided, quota, paced);
    if (next !== state) {
      state = next;
      announce();
    }
    panels.showState(state);
    const unreachableCards = state === 'open' && outOfCards && remaining !== 0 && fetchFailed;
    panels.showOfflineState(unreachableCards, !window.navigator.onLine, waitingSwipes(queue.items()).length);
    showOfflineBanner();
    panels.fitStack();
    controls.update(outOfCards, state);
    const running = cards.length <= 2 * profile.stack.visible;
    if (running && remaining > cards.length && !fetching) {
      fetchMore();
    }
  }

  // More cards before the stack runs dry (the server skips this participant's acknowledged swipes),
  // each built from its own data; no next cursor: the end of the deck.
  async function fetchMore() {
    fetching = true;
    try {
      // In a match room the room deals (data-room names it): every member the same order, cards liked by
      // others first if the room says so. Its deal changes as people decide, so it is asked from the top
      // and the cards already here are skipped.
      const inRoom = settings.room ? `&room=${settings.room}` : '';
      const from = settings.room ? -1 : cursor;
      const url = `${settings.api}/cards?cursor=${from}&limit=10${inRoom}`;
      const response = await fetch(url, { signal: timeout(requestTimeoutMs) });
      if (!response.ok) {
        throw new Error('HTTP ' + response.status);
      }
      const page = await response.json();
      const shown = new Set([...view.liveCards()].map((card) => Number(card.dataset.card)));
      view.append(page.cards.filter((card) => !shown.has(card.id)));
      fetchFailed = false;
      // A swipe queued meanwhile (here or in another tab) is done; the server counts what lies
      // beyond this page, so a card another tab decided before we loaded it is not counted here.
      dropDecided();
      remaining = view.liveCards().length + Math.max(page.remaining - page.cards.length, 0);
      cursor = page.nextCursor;
      fetching = !cursor;
    } catch {
      // Offline or refused: keep what we have, try again later (or at once when back online).
      fetchFailed = true;
      timers.setTimeout(() => {
        fetching = false;
        layout();
      }, refetchDelayMs);
    }
    layout();
  }

  // A decision: the card is thrown out (deck-stack.js) and the swipe queued for delivery; a full
  // storage keeps the card.
  function fling(element, direction, velocity, dx, dy, input, trace, geo = view.geometry(element)) {
    const key = newIdempotencyKey();
    const cardId = Number(element.dataset.card);
    const body = { card: cardId, direction, input, trace, decisionMs: Math.round(clock.now() - shownAt) };
    if (settings.room) {
      // A room's swipe names its room: the server checks membership and counts it towards matches.
      body.room = settings.room;
    }
    try {
      queue.addSwipe(key, body);
    } catch {
      say('Not saved: this browser\'s storage is full');
      view.springBack(element, dx, dy, velocity, geo);
      return;
    }
    view.throwOut(element, direction, velocity, dx, dy, geo);
    thrown.push({ element, key });
    remaining--;
    decided++;
    panels.dismissHint();
    shownAt = clock.now();
    layout();
    announce();
    delivery.deliver();
  }

  // Undo: the last card thrown here springs back from the left.
  function undo() {
    const last = thrown.pop();
    if (!last) {
      undoOnServer();
      return;
    }
    queue.addUndo(last.key, Number(last.element.dataset.card));
    putBack(last.element);
    delivery.deliver();
  }

  // Nothing thrown on this page (after a reload, back from a detail view): the server undoes the
  // latest swipe it has (the no-script form's route) when the page says there is one and nothing
  // waits here. Once: a double click must not undo two.
  function undoOnServer() {
    if (undoingOnServer) {
      return;
    }
    if (queue.items().length || settings.undo !== 'true') {
      say('Nothing to undo');
      return;
    }
    undoingOnServer = true;
    const request = { method: 'POST', signal: timeout(requestTimeoutMs) };
    fetch(rooted(`/d/${settings.deck}/undo`), request).then(() => location.reload(), () => {
      undoingOnServer = false;
      say('Offline: nothing undone');
    });
  }

  function putBack(element) {
    view.restore(element);
    remaining++;
    decided--;
    shownAt = clock.now();
    layout();
    announce();
    view.comeBack(element);
  }

  // Buttons and keys animate like real swipes; the form still posts when scripts are off.
  function act(direction, input) {
    if (drag.isDragging()) {
      return;
    }
    if (direction === 'undo') {
      undo();
      return;
    }
    const top = view.liveCards()[0];
    const allowed = mayActWithoutDrag(direction, profile.directions, settings.allowButtons === 'true', state);
    if (top && !top.anim && allowed) {
      fling(top, direction, { x: 0, y: 0 }, 0, 0, input);
    }
  }

  // The server's answer to a delivered item. A 201 may carry known-answer feedback (tellFeedback).
  // Refused (422: by the model; 409: already swiped, closed, past the quota; …): say why; a card the
  // model rejected comes back if it is not back already. A closed deck or a reached quota is a state
  // of the page, not a toast per card: the card comes back and the state's panel says why.
  async function explainRefusal(item, response) {
    const status = response.status;
    if (status === 201 && !item.undo) {
      await tellFeedback(response);
      return;
    }
    if (!isRefusal(status, Boolean(item.undo))) {
      return;
    }
    // A body that is not JSON still gets its status said.
    const answer = await response.json().catch(() => null);
    const code = answer?.error?.code;
    const index = thrown.findIndex((entry) => entry.key === item.key);
    const refusal = refusalEffect(status, code, Boolean(item.undo));
    if (code === 'deck_closed') {
      knownState = 'closed';
    }
    if (refusal.toast) {
      say(refusalMessage(answer, status, Boolean(item.undo)));
    }
    if (refusal.putBack && index >= 0) {
      // Not decided after all: the ledger forgets it, so the next fetch does not drop it again.
      queue.trustServer([item.body.card]);
      putBack(thrown.splice(index, 1)[0].element);
    }
    if (code === 'quota_reached') {
      // The server counts decisions this page cannot see (cards archived since, another device).
      decided = Math.max(decided, quota ?? decided);
    }
    layout();
  }

  // A known-answer card in feedback or training mode: the 201 says whether the swipe was right, and
  // the status line (an aria-live region) says it.
  async function tellFeedback(response) {
    // A 201 whose body is not JSON has nothing to tell.
    const answer = await response.json().catch(() => null);
    const labels = { left: settings.left, right: settings.right, up: settings.up, down: settings.down };
    const message = feedbackMessage(answer?.feedback, labels);
    if (message) {
      say(message);
    }
  }

  // Another tab queued, delivered or undid: drop the cards it decided, show what it changed.
  function onStorage(event) {
    if (!queue.isOurs(event.key)) {
      return;
    }
    const dropped = dropDecided();
    remaining -= dropped;
    decided += dropped;
    layout();
    if (dropped) {
      announce();
    }
  }

  function onOnline() {
    delivery.deliver();
    if (fetchFailed && !fetching) {
      fetchMore();
    }
    layout();
  }

  // A deck on a big screen (data-stage: its stage stream): a Lock, an Unlock and a Reveal reach
  // this page as they happen, and a reveal timer counts down here. The stream reconnects by itself.
  let revealDue = null;
  let revealTick = null;
  function onStage(event) {
    const stage = JSON.parse(event.data);
    const next = stageState(knownState, stage.open, settings.state);
    // Self-paced again, or paced from now: the page is served anew with its deal.
    if (next === 'reload' || Boolean(stage.paced) !== paced) {
      location.reload();
      return;
    }
    knownState = next;
    if (paced) {
      followPace(stage);
    }
    const timed = !stage.revealed && typeof stage.revealIn === 'number';
    revealDue = timed ? clock.now() + stage.revealIn * 1000 : null;
    showStage(stage.revealed);
    layout();
  }

  // Host-paced: the presenter's card comes with the stage (built from its own JSON, `dealt`: a
  // thousand phones ask nothing) unless this browser decided it, and every other card leaves — the
  // one the presenter moved on from, or one whose time is up. The waiting panel says why when
  // there is none.
  function followPace(stage) {
    const open = stage.cardOpen && stage.dealt && !queue.decidedCards().has(stage.dealt.id);
    const dealt = open ? stage.dealt : null;
    const shown = [...view.liveCards()].map((card) => Number(card.dataset.card));
    view.drop(new Set(shown.filter((id) => !dealt || id !== dealt.id)));
    if (dealt && !shown.includes(dealt.id)) {
      view.append([dealt]);
      // The time to decide counts from the card's arrival (the trust rules read it).
      shownAt = clock.now();
    }
    remaining = view.liveCards().length;
    panels.showWaiting(waitingWords(stage));
    announce();
  }

  function showStage(revealed) {
    timers.clearTimeout(revealTick);
    const left = revealDue === null ? null : Math.ceil((revealDue - clock.now()) / 1000);
    panels.showStage(stageWords(revealed, left), revealed);
    if (left !== null && left > 0) {
      revealTick = timers.setTimeout(() => showStage(false), 1000);
    }
  }

  // Followed once this browser holds a credential (a page past the join budget gets one when it
  // joins). Refused or cut off for good (a browser's EventSource gives up on a 429 or a 403), it is
  // asked again after the server's wait for a stream (data-stage-retry, seconds).
  let stageSource = null;
  function followStage() {
    if (!settings.stage || !window.EventSource || stageSource || delivery.isJoining()) {
      return;
    }
    stageSource = new window.EventSource(settings.stage);
    stageSource.addEventListener('stage', onStage);
    stageSource.addEventListener('error', () => {
      if (stageSource.readyState === window.EventSource.CLOSED) {
        stageSource = null;
        timers.setTimeout(followStage, Number(settings.stageRetry) * 1000);
      }
    });
  }

  followStage();

  window.addEventListener('storage', onStorage);
  window.addEventListener('online', onOnline);
  window.addEventListener('offline', () => layout());
  window.addEventListener('resize', panels.fitStack);

  const rendered = [...view.liveCards()].map((card) => Number(card.dataset.card));
  queue.trustServer(rendered);
  const droppedAtStart = dropDecided();
  remaining -= droppedAtStart;
  decided += droppedAtStart;
  layout();
  panels.showHint(state);
  if (delivery.isJoining()) {
    delivery.scheduleJoin(puzzle ? 0 : Number(settings.joinWait) || 1);
  }
  delivery.deliver();
  view.playEntrance();
  // From here a drag moves the top card (tests and the page benchmark wait for this).
  root.dataset.ready = 'true';
  clock.mark('deck-ready');
}

const page = document.querySelector('.deck-page');
const swipeProfile = JSON.parse(document.querySelector('#swipe-profile').textContent);
createDeckPage(page, swipeProfile, {
  window,
  document,
  storage: localStorage,
  fetch: (url, init) => fetch(url, init),
  clock: {
    now: () => performance.now(),
    frame: (callback) => requestAnimationFrame(callback),
    cancelFrame: (id) => cancelAnimationFrame(id),
    mark: (name) => performance.mark(name),
  },
  timers: {
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (id) => clearTimeout(id),
  },
  timeout: (ms) => AbortSignal.timeout(ms),
  locks: navigator.locks,
  location,
  reduceMotion: matchMedia('(prefers-reduced-motion: reduce)').matches,
  random: Math.random,
  digest: digestFor(window.crypto && window.crypto.subtle),
});
