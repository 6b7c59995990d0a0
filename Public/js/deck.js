// Swipedeck gesture shim: enhances the server-rendered stack (only the deck page loads it). Every
// physics number comes from the profile JSON the server embeds (#swipe-profile) through physics.js;
// this file only wires the DOM. The server's markup and CSS do what they can without a script: the
// stack's depth transforms and touch-action (/css/stack/{profile}.css), a tap on a card opening its
// detail view (a card-sized link), forms for every button.
//
// Layout of this file: card elements built from data, then createDeckPage, which wires one deck
// page. Its pure helpers are deck-model.js; the queue shared by the tabs is queue.js; the status
// line is toast.js.
import {
  announcement, cardsLeft, isParticipantRefusal, isRefusal, isWorthRetrying, keyAction, maxJoinWaitSeconds,
  overlayFamily, pendingPhrase, refetchDelayMs, refusalEffect, refusalMessage, requestTimeoutMs, retrySeconds,
  stackState, waitingPhrase,
} from './deck-model.js';
import { Classification, DragState, Motion, dampedSpring } from './physics.js';
import { createSharedQueue, newIdempotencyKey, waitingSwipes } from './queue.js';
import { rooted } from './root.js';
import { createToast } from './toast.js';

// ---------------------------------------------------------------- card elements

/**
 * Builds a card element from the card's own JSON (GET …/cards) out of the page's empty card
 * (<template id="card-template">, the server's card markup), so a fetched card has its own image
 * or its own placeholder, never the first card's.
 */
function createCardBuilder(template) {
  return function buildCard(card) {
    const element = template.content.firstElementChild.cloneNode(true);
    const titleId = 'card-title-' + card.id;
    element.id = 'card-' + card.id;
    element.dataset.card = card.id;
    element.setAttribute('aria-labelledby', titleId);
    const title = element.querySelector('.card-title');
    title.id = titleId;
    title.textContent = card.title;
    element.querySelector('.card-subtitle').textContent = card.subtitle;
    element.querySelectorAll('a').forEach((link) => {
      link.href = card.detail;
    });
    element.querySelector('.placeholder rect').setAttribute('fill', card.accent);
    if (card.image) {
      const image = document.createElement('img');
      image.src = rooted(card.image);
      image.alt = '';
      image.draggable = false;
      image.loading = 'lazy';
      element.querySelector('.card-media').append(image);
    }
    return element;
  };
}

// ---------------------------------------------------------------- the page

/**
 * Wires one deck page: `root` is the server's <section class="deck-page"> (its data-* attributes
 * name the deck, the API base, the fetch cursor and the count left), `profile` the swipe profile.
 */
function createDeckPage(root, profile) {
  const settings = root.dataset;
  const stack = root.querySelector('#stack');
  const say = createToast(root.querySelector('.toast'));
  const announcer = root.querySelector('#announce');
  const counter = root.querySelector('#remaining');
  const counterPill = root.querySelector('.counter');
  const statePanels = root.querySelectorAll('.stack-state');
  const offlineState = root.querySelector('.offline-state');
  const offlineBanner = root.querySelector('.offline-banner');
  const hint = root.querySelector('.swipe-hint');
  const head = root.querySelector('.deck-head');
  const description = root.querySelector('.deck-description');
  const hintKey = 'sd-hint-seen:' + settings.deck;
  const controls = root.querySelector('.controls');
  const buildCard = createCardBuilder(root.querySelector('#card-template'));
  const queue = createSharedQueue(localStorage, settings.deck);
  const reduceMotion = matchMedia('(prefers-reduced-motion: reduce)').matches;
  const now = () => performance.now();
  // Cards thrown on this page, newest last: {element, key}.
  const thrown = [];

  let drag = null;
  let lastPointerDown = null;
  let dragJustEnded = 0;
  let undoingOnServer = false;
  let shownAt = now();
  let cursor = settings.cursor;
  let remaining = Number(settings.remaining);
  let fetching = false;
  let fetchFailed = false;
  let deliveryAttempt = 0;
  let deliveryTimer = 0;
  let delivering = false;
  let pressedControl = null;
  // What only the server tells (noCards, closed), else 'open'; a deck_closed refusal closes it here.
  let knownState = settings.state === 'noCards' || settings.state === 'closed' ? settings.state : 'open';
  let state = settings.state;
  const quota = settings.quota === '' ? null : Number(settings.quota);
  let decided = Number(settings.decided);
  // The last delivery got no answer at all (the server is down or unreachable).
  let unreachable = false;
  // No participant id yet (the join budget of this network is spent): decisions wait here.
  let joining = settings.state === 'joining';
  let joinTimer = 0;

  // The top cards: those not on their way out.
  function liveCards() {
    return stack.querySelectorAll('.card:not(.leaving)');
  }

  function announce() {
    const top = liveCards()[0];
    const topTitle = top ? top.querySelector('.card-title').textContent : '';
    announcer.textContent = announcement(topTitle, cardsLeft(remaining, decided, quota));
  }

  function geometry(element) {
    return { w: element.offsetWidth, h: element.offsetHeight, vw: innerWidth, vh: innerHeight, gy: 0 };
  }

  // While a card moves only transform and opacity change.
  function paint(element, x, y, geo) {
    const angle = Motion.rotation(x, geo.w, geo.h, geo.vw, geo.gy, profile);
    element.style.transform = `translate(${x}px,${y}px) rotate(${angle}rad)`;
  }

  // Overlays of the direction's family (diagonals show left/right).
  function showOverlays(element, direction, opacity) {
    const family = overlayFamily(direction);
    element.querySelectorAll('.overlay').forEach((overlay) => {
      overlay.style.opacity = overlay.className.endsWith(family) ? opacity : 0;
    });
  }

  // frame(elapsed ms) each frame while it returns true, then `then`. A newer animation of the same
  // element (undo during a throw) silently ends the older one; a card that is moving takes no drag.
  function animate(element, frame, then) {
    const start = now();
    element.anim = frame;
    const step = () => {
      if (element.anim !== frame) {
        return;
      }
      if (frame(now() - start)) {
        requestAnimationFrame(step);
        return;
      }
      element.anim = 0;
      then();
    };
    step();
  }

  // Cards this browser already decided (in this tab, another tab, or an earlier visit whose swipe
  // still waits) leave the stack: how many did.
  function dropDecided() {
    const decided = queue.decidedCards();
    let dropped = 0;
    for (const element of liveCards()) {
      if (decided.has(Number(element.dataset.card))) {
        element.remove();
        dropped++;
      }
    }
    return dropped;
  }

  function layout() {
    const cards = liveCards();
    cards.forEach((card, index) => {
      card.dataset.depth = Math.min(index, profile.stack.visible);
      // Cards under the top one take no focus or clicks (their links would open a card not on top).
      card.inert = index > 0;
    });
    remaining = Math.max(remaining, 0);
    const left = cardsLeft(remaining, decided, quota);
    if (counter.textContent !== String(left)) {
      counter.textContent = left;
      springScale(counterPill);
    }
    const outOfCards = !cards[0];
    showState(stackState(knownState, cards.length, remaining, decided, quota));
    // Cards still to come but unreachable: say so, and what waits here.
    offlineState.hidden = state !== 'open' || !outOfCards || remaining === 0 || !fetchFailed;
    if (!offlineState.hidden) {
      describeOffline();
    }
    showOfflineBanner();
    fitStack();
    controls.querySelectorAll('[name=direction]').forEach((button) => {
      button.disabled = outOfCards || state !== 'open';
    });
    controls.querySelector('.ctl-undo').disabled = state === 'closed' || state === 'noCards';
    const running = cards.length <= 2 * profile.stack.visible;
    if (running && remaining > cards.length && !fetching) {
      fetchMore();
    }
  }

  // What stands above the stack beyond a one-line title (more title lines, the description, the
  // offline notice) comes off the stack's height (--head-extra in app.css).
  function fitStack() {
    let extra = head.offsetHeight - counterPill.offsetHeight;
    if (description) {
      extra += description.offsetHeight;
    }
    if (!offlineBanner.hidden) {
      extra += offlineBanner.offsetHeight;
    }
    root.style.setProperty('--head-extra', `${Math.max(extra, 0)}px`);
  }

  // Only the panel of the current state shows; in any state but open the cards take no input.
  function showState(next) {
    if (next !== state) {
      state = next;
      announce();
    }
    root.dataset.state = state;
    statePanels.forEach((panel) => {
      panel.hidden = !panel.classList.contains('state-' + state);
    });
    stack.inert = state !== 'open';
    if (state !== 'open') {
      hint.hidden = true;
    }
  }

  // Offline (or the server unreachable) shows at once above the stack, with the swipes that wait.
  function showOfflineBanner() {
    const offline = !navigator.onLine;
    offlineBanner.hidden = !offline && !unreachable && !joining;
    if (offlineBanner.hidden) {
      return;
    }
    const waiting = waitingSwipes(queue.items()).length;
    if (offline) {
      offlineBanner.textContent = `You are offline. ${pendingPhrase(waiting, 'you are back online')}`;
    } else if (unreachable) {
      offlineBanner.textContent = `The server cannot be reached. ${pendingPhrase(waiting, 'it answers')}`;
    } else {
      const crowd = 'Many people are joining from your network right now.';
      offlineBanner.textContent = `${crowd} ${pendingPhrase(waiting, 'you are in')}`;
    }
  }

  // The first-visit hint: shown on an open deck until dismissed (its button, or a first decision).
  function showHint() {
    let seen = true;
    try {
      seen = localStorage.getItem(hintKey) === '1';
    } catch {
      // Storage refused (a private window's policy): show the hint; the page works without it.
      seen = false;
    }
    hint.hidden = seen || state !== 'open';
  }

  function dismissHint() {
    hint.hidden = true;
    try {
      localStorage.setItem(hintKey, '1');
    } catch {
      // Storage full or refused: the hint comes back on the next visit, nothing else is lost.
    }
  }

  function describeOffline() {
    const waiting = waitingSwipes(queue.items()).length;
    const offline = !navigator.onLine;
    offlineState.querySelector('.offline-title').textContent = offline
      ? 'You are offline'
      : 'The server cannot be reached';
    const when = offline ? 'when this device is back online' : 'as soon as the server answers';
    const sentence = waiting > 0
      ? `${waitingPhrase(waiting)} and will be sent ${when}.`
      : `Your swipes are all sent. More cards come ${when}.`;
    offlineState.querySelector('.offline-text').textContent = sentence;
  }

  // More cards before the stack runs dry (the server skips this participant's acknowledged swipes),
  // each built from its own data; no next cursor: the end of the deck.
  async function fetchMore() {
    fetching = true;
    try {
      const url = `${settings.api}/cards?cursor=${cursor}&limit=10`;
      const response = await fetch(url, { signal: AbortSignal.timeout(requestTimeoutMs) });
      if (!response.ok) {
        throw new Error('HTTP ' + response.status);
      }
      const page = await response.json();
      for (const card of page.cards) {
        stack.append(buildCard(card));
      }
      fetchFailed = false;
      // A swipe queued meanwhile (here or in another tab) is done; the server counts what lies
      // beyond this page, so a card another tab decided before we loaded it is not counted here.
      dropDecided();
      remaining = liveCards().length + Math.max(page.remaining - page.cards.length, 0);
      cursor = page.nextCursor;
      fetching = !cursor;
    } catch {
      // Offline or refused: keep what we have, try again later (or at once when back online).
      fetchFailed = true;
      setTimeout(() => {
        fetching = false;
        layout();
      }, refetchDelayMs);
    }
    layout();
  }

  // Pointer Events: one active pointer, captured once the drag starts; a dead zone of tapSlopPx
  // keeps taps (links, the detail view) working; no layout reads while moving. `trace` is the
  // recorded trace.
  function onPointerDown(event) {
    const top = liveCards()[0];
    lastPointerDown = event;
    if (drag || !top || !top.contains(event.target) || event.button || top.anim || state !== 'open') {
      return;
    }
    const box = top.getBoundingClientRect();
    const grab = {
      gx: event.clientX - box.left,
      gy: event.clientY - box.top,
      ox: event.clientX,
      oy: event.clientY,
    };
    const trace = { t: [0], x: [0], y: [0], ...geometry(top), ...grab };
    drag = { element: top, pointerId: event.pointerId, startTime: event.timeStamp, trace };
  }

  function onPointerMove(event) {
    if (!drag || event.pointerId !== drag.pointerId) {
      return;
    }
    const trace = drag.trace;
    const t = event.timeStamp - drag.startTime;
    const x = event.clientX - trace.ox;
    const y = event.clientY - trace.oy;
    if (!drag.live) {
      if (!event.buttons) {
        // Released where no pointerup reached the page.
        drag = null;
        return;
      }
      if (x * x + y * y < profile.tapSlopPx * profile.tapSlopPx) {
        return;
      }
      // Past the dead zone the card follows in every direction, as on a native card stack.
      drag.element.setPointerCapture(drag.pointerId);
      drag.live = true;
      drag.element.classList.add('dragging');
      if (profile.rotateAboutGrabPoint) {
        drag.element.style.transformOrigin = `${trace.gx}px ${trace.gy}px`;
      }
    }
    if (t > trace.t.at(-1)) {
      trace.t.push(t);
      trace.x.push(x);
      trace.y.push(y);
    }
    if (!drag.frame) {
      const current = drag;
      current.frame = requestAnimationFrame(() => {
        current.frame = 0;
        const state = DragState.of(x, y, trace.w, trace.h, trace.vw, trace.vh, trace.ox, profile);
        paint(current.element, trace.x.at(-1), trace.y.at(-1), trace);
        showOverlays(current.element, state.candidate, Motion.overlayOpacity(state.progress, profile));
      });
    }
  }

  function onPointerEnd(event) {
    if (!drag || event.pointerId !== drag.pointerId) {
      return;
    }
    const ended = drag;
    drag = null;
    if (!ended.live) {
      // A tap: the card's link takes it.
      return;
    }
    cancelAnimationFrame(ended.frame);
    // Swallow only the click that ends this drag.
    dragJustEnded = setTimeout(() => {
      dragJustEnded = 0;
    });
    const trace = ended.trace;
    const verdict = Classification.of(trace, null, profile);
    const direction = event.type === 'pointerup' ? verdict.decision : 'none';
    const x = trace.x.at(-1);
    const y = trace.y.at(-1);
    if (direction !== 'none') {
      fling(ended.element, direction, verdict.velocity, x, y, 'drag', trace, trace);
    } else {
      springBack(ended.element, x, y, verdict.velocity, trace);
    }
  }

  // A click ends a tap only: not a drag, nor a press that moved past the dead zone without becoming
  // one (a press on a card that was still moving); keyboard clicks (detail 0) pass.
  function onStackClick(event) {
    const dx = event.clientX - lastPointerDown?.clientX;
    const dy = event.clientY - lastPointerDown?.clientY;
    const moved = dx ** 2 + dy ** 2 > profile.tapSlopPx * profile.tapSlopPx;
    if (dragJustEnded || (event.detail && moved)) {
      event.preventDefault();
    }
  }

  // Spring back with the profile's return spring (critically damped under reduced motion).
  function springBack(element, dx, dy, velocity, geo) {
    const parameters = reduceMotion ? { ...profile.returnSpring, dampingRatio: 1 } : profile.returnSpring;
    const spring = dampedSpring(parameters);
    const distance = Math.hypot(dx, dy);
    const speed = Math.hypot(velocity.x, velocity.y);
    const duration = spring.settleTime(distance, speed);
    showOverlays(element, '', 0);
    const frame = (t) => {
      if (!(t < duration)) {
        return false;
      }
      const x = spring.state(t, dx, velocity.x).position;
      const y = spring.state(t, dy, velocity.y).position;
      paint(element, x, y, geo);
      return true;
    };
    animate(element, frame, () => {
      element.classList.remove('dragging');
      element.removeAttribute('style');
    });
  }

  // Throw out along the release at the release speed (reduced motion: a short fade); the stack
  // moves up at once (CSS transition) and the swipe is queued for delivery.
  function fling(element, direction, velocity, dx, dy, input, trace, geo = geometry(element)) {
    const target = Motion.throwOut(dx, dy, velocity, direction, innerWidth, profile);
    const duration = reduceMotion ? profile.throwMinMs : target.durationMs;
    const key = newIdempotencyKey();
    const cardId = Number(element.dataset.card);
    const body = { card: cardId, direction, input, trace, decisionMs: Math.round(now() - shownAt) };
    try {
      queue.addSwipe(key, body);
    } catch {
      say('Not saved: this browser\'s storage is full');
      springBack(element, dx, dy, velocity, geo);
      return;
    }
    element.classList.add('dragging', 'leaving');
    element.style.zIndex = 99;
    showOverlays(element, direction, 1);
    thrown.push({ element, key });
    const frame = (t) => {
      const k = Math.min(1, t / duration);
      paint(element, dx + (target.x - dx) * k, dy + (target.y - dy) * k, geo);
      if (reduceMotion) {
        element.style.opacity = 1 - k;
      }
      return k < 1;
    };
    animate(element, frame, () => element.remove());
    remaining--;
    decided++;
    if (!hint.hidden) {
      dismissHint();
    }
    shownAt = now();
    layout();
    announce();
    deliver();
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
    deliver();
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
    const request = { method: 'POST', signal: AbortSignal.timeout(requestTimeoutMs) };
    fetch(rooted(`/d/${settings.deck}/undo`), request).then(() => location.reload(), () => {
      undoingOnServer = false;
      say('Offline: nothing undone');
    });
  }

  function putBack(element) {
    // Ends a throw still in flight (its loop would remove the card).
    element.anim = 0;
    element.classList.remove('leaving');
    element.style.opacity = '';
    stack.prepend(element);
    remaining++;
    decided--;
    shownAt = now();
    layout();
    announce();
    if (!reduceMotion) {
      springBack(element, -innerWidth, 0, { x: 0, y: 0 }, geometry(element));
      return;
    }
    // Reduced motion: a short fade in place instead of the slide in from the left.
    element.classList.remove('dragging');
    element.removeAttribute('style');
    showOverlays(element, '', 0);
    element.animate([{ opacity: 0 }, {}], profile.throwMinMs);
  }

  // Buttons and keys animate like real swipes; the form still posts when scripts are off.
  function act(direction, input) {
    if (drag) {
      return;
    }
    if (direction === 'undo') {
      undo();
      return;
    }
    const top = liveCards()[0];
    const buttons = settings.allowButtons === 'true';
    const allowed = profile.directions.includes(direction) && buttons && state === 'open';
    if (top && !top.anim && allowed) {
      fling(top, direction, { x: 0, y: 0 }, 0, 0, input);
    }
  }

  // Seed 001's buttons and labels with a twist: a pressed control shrinks to profile.pressScale and
  // profile.pressSpring brings it back; the count pill does the same when the count changes. The
  // spring runs in px at the element's edge, so settleTime's half-pixel rest applies.
  function springScale(element) {
    if (reduceMotion) {
      return;
    }
    const halfWidth = element.offsetWidth / 2;
    const offset = (profile.pressScale - 1) * halfWidth;
    const spring = dampedSpring(profile.pressSpring);
    const duration = spring.settleTime(Math.abs(offset), 0);
    const frame = (t) => {
      const edge = t < duration ? spring.state(t, offset, 0).position : 0;
      element.style.transform = `scale(${1 + edge / halfWidth})`;
      return t < duration;
    };
    animate(element, frame, () => element.style.removeProperty('transform'));
  }

  function onControlsPointerDown(event) {
    const button = event.target.closest('.ctl');
    if (!button || button.disabled || reduceMotion) {
      return;
    }
    // Held down: the spring's starting point, until the release lets it go.
    button.anim = 0;
    button.style.transform = `scale(${profile.pressScale})`;
    pressedControl = button;
  }

  function releaseControl() {
    if (pressedControl) {
      springScale(pressedControl);
      pressedControl = null;
    }
  }

  function controlFor(action) {
    const selector = action === 'undo' ? '.ctl-undo' : `[name=direction][value="${action}"]`;
    return controls.querySelector(selector);
  }

  // A double click is one activation: its second click (detail 2) decides nothing.
  function onControlsClick(event) {
    if (event.detail > 1) {
      event.preventDefault();
    }
  }

  function onControlsSubmit(event) {
    event.preventDefault();
    act(event.submitter?.value || 'undo', 'button');
  }

  // Keys act on the deck when the deck has focus, or when nothing has focus and, for up and down,
  // the page does not scroll (so a short screen still scrolls with the keyboard). The page never
  // scrolls sideways on purpose (a thrown card may overhang it for a moment), so left and right are
  // the deck's. Held keys repeat: only the first press acts.
  function keyReachesDeck(action) {
    const focused = document.activeElement;
    if (focused && focused !== document.body) {
      return root.contains(focused);
    }
    if (action !== 'up' && action !== 'down') {
      return true;
    }
    const page = document.scrollingElement;
    return page.scrollHeight <= page.clientHeight;
  }

  function onKeyDown(event) {
    const action = keyAction(event.key);
    const modified = event.metaKey || event.ctrlKey || event.altKey;
    if (!action || event.repeat || modified || !keyReachesDeck(action)) {
      return;
    }
    event.preventDefault();
    act(action, 'key');
    const button = controlFor(action);
    if (button && !button.hidden) {
      springScale(button);
    }
  }

  // Delivery: one loop at a time in this browser (a Web Lock spans the tabs) sends the queue in
  // order under each item's Idempotency-Key (a retry never makes a second row). Offline, 429 and
  // 5xx wait and try the same item again; any other answer takes it off the queue.
  function deliver() {
    clearTimeout(deliveryTimer);
    if (delivering) {
      // The running loop picks up what was queued meanwhile.
      return;
    }
    delivering = true;
    const done = () => {
      delivering = false;
    };
    if (navigator.locks) {
      navigator.locks.request('sd-deliver:' + settings.deck, deliverQueue).finally(done);
    } else {
      deliverQueue().finally(done);
    }
  }

  function requestFor(item) {
    const signal = AbortSignal.timeout(requestTimeoutMs);
    if (item.undo) {
      return [rooted('/api/v1/swipes/' + item.undo), { method: 'DELETE', signal }];
    }
    const headers = { 'Content-Type': 'application/json', 'Idempotency-Key': item.key };
    const body = JSON.stringify(item.body);
    return [settings.api + '/swipes', { method: 'POST', headers, body, signal }];
  }

  // Asks for this page again, headers only: a page view mints a participant id within the join
  // budget. An answer without Retry-After came with the id's cookie: what waits is delivered.
  async function join() {
    const request = { method: 'HEAD', signal: AbortSignal.timeout(requestTimeoutMs) };
    const response = await fetch(location.pathname, request).catch(() => null);
    const wait = response ? Number(response.headers.get('Retry-After')) : 0;
    if (response && response.ok && !wait) {
      joining = false;
      showOfflineBanner();
      deliver();
      return;
    }
    scheduleJoin(wait || refetchDelayMs / 1e3);
  }

  function scheduleJoin(seconds) {
    clearTimeout(joinTimer);
    joinTimer = setTimeout(join, Math.min(seconds, maxJoinWaitSeconds) * 1e3);
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
      const [url, request] = requestFor(item);
      const response = await fetch(url, request).catch(() => null);
      const status = response ? response.status : 0;
      if (unreachable !== !response) {
        unreachable = !response;
        showOfflineBanner();
      }
      if (isWorthRetrying(status)) {
        const seconds = retrySeconds(response, deliveryAttempt);
        deliveryAttempt++;
        deliveryTimer = setTimeout(deliver, seconds * 1e3);
        return;
      }
      if (await needsParticipant(response)) {
        joining = true;
        showOfflineBanner();
        scheduleJoin(1);
        return;
      }
      queue.remove(item.key);
      deliveryAttempt = 0;
      await explainRefusal(item, response);
      showOfflineBanner();
    }
  }

  // Refused (422: by the model; 409: already swiped, closed, past the quota; …): say why; a card the
  // model rejected comes back if it is not back already. A closed deck or a reached quota is a state
  // of the page, not a toast per card: the card comes back and the state's panel says why.
  async function explainRefusal(item, response) {
    const status = response.status;
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
    deliver();
    if (fetchFailed && !fetching) {
      fetchMore();
    }
    layout();
  }

  // Seed 000 (classic): the cards fly in from random off-screen points over enterMs, into their slots.
  function playEntrance() {
    if (!profile.enterMs || reduceMotion) {
      return;
    }
    liveCards().forEach((card) => {
      const start = Motion.entrance(Math.random(), Math.random(), Math.random());
      const transform = `translate(${start.x}px,${start.y}px) rotate(${start.rotation}rad)`;
      const from = { transform, opacity: 0 };
      card.anim = card.animate([from], profile.enterMs);
      card.anim.onfinish = () => {
        card.anim = 0;
      };
    });
  }

  stack.addEventListener('pointerdown', onPointerDown);
  // Moves and releases are watched on the window: a press that leaves the stack before it becomes a
  // drag (no capture yet) still ends.
  addEventListener('pointermove', onPointerMove);
  addEventListener('pointerup', onPointerEnd);
  addEventListener('pointercancel', onPointerEnd);
  stack.addEventListener('click', onStackClick, true);
  controls.addEventListener('click', onControlsClick, true);
  controls.addEventListener('submit', onControlsSubmit);
  controls.addEventListener('pointerdown', onControlsPointerDown);
  addEventListener('pointerup', releaseControl);
  addEventListener('pointercancel', releaseControl);
  // A listener, not onkeydown: an on-handler returning false would cancel every other key.
  addEventListener('keydown', onKeyDown);
  addEventListener('storage', onStorage);
  addEventListener('online', onOnline);
  addEventListener('offline', () => layout());
  addEventListener('resize', fitStack);
  hint.querySelector('.hint-dismiss').addEventListener('click', dismissHint);

  const rendered = [...liveCards()].map((card) => Number(card.dataset.card));
  queue.trustServer(rendered);
  const droppedAtStart = dropDecided();
  remaining -= droppedAtStart;
  decided += droppedAtStart;
  layout();
  showHint();
  if (joining) {
    scheduleJoin(Number(settings.joinWait) || 1);
  }
  deliver();
  playEntrance();
  // From here a drag moves the top card (tests and the page benchmark wait for this).
  root.dataset.ready = 'true';
  performance.mark('deck-ready');
}

createDeckPage(
  document.querySelector('.deck-page'),
  JSON.parse(document.querySelector('#swipe-profile').textContent),
);
