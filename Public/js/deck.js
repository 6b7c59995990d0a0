// Swipedeck gesture shim: enhances the server-rendered stack (only the deck page loads it). Every
// physics number comes from the profile JSON the server embeds (#swipe-profile) through physics.js;
// this file only wires the DOM. The server's markup and CSS do what they can without a script: the
// stack's depth transforms and touch-action (/css/stack/{profile}.css), a tap on a card opening its
// detail view (a card-sized link), forms for every button.
import {
  classify, dragState, rotation, overlayOpacity, throwOut, springState, settleTime, entrance,
} from './physics.js';

const $ = (selector, root = document) => root.querySelector(selector);
const now = () => performance.now();
const raf = requestAnimationFrame;
const M = Math;
const P = JSON.parse($('#swipe-profile').textContent);
const D = $('.deck-page').dataset;
const stack = $('#stack');
const toast = $('.toast');
const KEY = 'sd-queue:' + D.deck;
const reduce = matchMedia('(prefers-reduced-motion: reduce)').matches;
const done = [];
const proto = stack.children[0]?.cloneNode(1);

// The top cards: those not on their way out.
const cards = () => stack.querySelectorAll('.card:not(.leaving)');

// An Idempotency-Key: randomUUID needs a secure context (https or localhost); a phone on the LAN
// reaching a self-hosted http:// server has only getRandomValues.
function uuid() {
  if (crypto.randomUUID) {
    return crypto.randomUUID();
  }
  const bytes = [...crypto.getRandomValues(new Uint8Array(16))];
  return bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
}

// A request that never answers must not stall delivery or prefetch.
const wait = () => AbortSignal.timeout(15e3);

// Unacknowledged requests, oldest first: {key, body} a swipe to POST, {key, undo} a swipe to DELETE.
const queue = () => JSON.parse(localStorage[KEY] || '[]');
const save = (q) => {
  localStorage[KEY] = JSON.stringify(q);
};

let toastTimer = 0;
function say(message) {
  toast.textContent = message;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    toast.textContent = '';
  }, 2500);
}

// While a card moves only transform and opacity change; overlays of the direction's family
// (diagonals show left/right).
function paint(el, x, y, r) {
  const angle = rotation(x, r.w, r.h, r.vw, r.gy, P);
  el.style.transform = `translate(${x}px,${y}px) rotate(${angle}rad)`;
}

function overlays(el, d, opacity) {
  const family = d.split('_').pop();
  el.querySelectorAll('.overlay').forEach((overlay) => {
    overlay.style.opacity = overlay.className.endsWith(family) ? opacity : 0;
  });
}

const geo = (el) => ({ w: el.offsetWidth, h: el.offsetHeight, vw: innerWidth, vh: innerHeight, gy: 0 });

// frame(elapsed ms) each frame while it returns true, then `then`. A newer animation of the same
// element (undo during a throw) silently ends the older one; a card that is moving takes no new drag.
function animate(el, frame, then) {
  const t0 = now();
  el.anim = frame;
  const step = () => {
    if (el.anim != frame) {
      return;
    }
    if (frame(now() - t0)) {
      raf(step);
      return;
    }
    el.anim = 0;
    then();
  };
  step();
}

// Cards whose swipe still waits in the queue (from an earlier visit, or fetched again meanwhile) are
// not shown again, unless an undo of it waits too: their count.
function prune() {
  const q = queue();
  let removed = 0;
  for (const item of q) {
    if (!item.body || q.some((u) => u.undo == item.key)) {
      continue;
    }
    const el = $(`.card[data-card="${item.body.card}"]:not(.leaving)`, stack);
    if (el) {
      el.remove();
      removed++;
    }
  }
  return removed;
}

let drag;
let down;
let dragged;
let undoing;
let shownAt = now();
let cursor = D.cursor;
let remaining = D.remaining - prune();
let fetching;
let backoff = 0;
let timer;
let flushing;

function layout() {
  const cs = cards();
  // Cards under the top one take no focus or clicks (their links would open a card not on top).
  cs.forEach((c, i) => (c.dataset.depth = M.min(i, P.stack.visible), c.inert = i > 0));
  $('#remaining').textContent = remaining = M.max(remaining, 0);
  $('.empty-state').hidden = !!cs[0] || remaining > 0; // cards still to come: not "all caught up"
  $('.controls').querySelectorAll('[name=direction]').forEach(b => b.disabled = !cs[0]);
  cs.length <= 2 * P.stack.visible && remaining > cs.length && !fetching && more();
}

// More cards before the stack runs dry (the server skips this participant's acknowledged swipes),
// filled into copies of the first card's markup; no next cursor: the end of the deck.
async function more() {
  fetching = 1;
  try {
    const j = await (await fetch(`${D.api}/cards?cursor=${cursor}&limit=10`, { signal: wait() })).json();
    for (const c of j.cards) {
      const el = stack.appendChild(proto.cloneNode(1)), img = $('img', el);
      el.id = 'card-' + (el.dataset.card = c.id);
      $('.card-title', el).textContent = c.title;
      $('.card-subtitle', el).textContent = c.subtitle;
      el.querySelectorAll('a').forEach(a => a.href = c.detail);
      if (img) img.src = c.image;
    }
    remaining -= prune(); // a swipe queued meanwhile or on an earlier visit is counted as done
    fetching = !(cursor = j.nextCursor);
  } catch {
    // Offline or refused: keep what we have, try again in 5 s.
    setTimeout(() => layout(fetching = 0), 5e3);
  }
  layout();
}

// Pointer Events: one active pointer, captured once the drag starts; a dead zone of tapSlopPx keeps
// taps (links, the detail view) working; no layout reads while moving. r is the trace being recorded.
stack.onpointerdown = e => {
  const el = cards()[0], b = el?.getBoundingClientRect();
  down = e;
  if (!drag && el?.contains(e.target) && !e.button && !el.anim) {
    const grab = { gx: e.clientX - b.left, gy: e.clientY - b.top, ox: e.clientX, oy: e.clientY };
    drag = { el, id: e.pointerId, t0: e.timeStamp, r: { t: [0], x: [0], y: [0], ...geo(el), ...grab } };
  }
};
// Moves and releases are watched on the window: a press that leaves the stack before it becomes a
// drag (no capture yet) still ends.
onpointermove = e => {
  const g = drag, r = g?.r, t = e.timeStamp - g?.t0, x = e.clientX - r?.ox, y = e.clientY - r?.oy;
  if (e.pointerId != g?.id) return;
  if (!g.live) {
    if (!e.buttons) return drag = 0; // released where no pointerup reached the page
    if (x * x + y * y < P.tapSlopPx * P.tapSlopPx) return;
    // A vertical move is the page scrolling.
    if (!/up|down/.test(P.directions) && x * x < y * y) return drag = 0;
    g.live = g.el.setPointerCapture(g.id) || 1;
    g.el.classList.add('dragging');
    if (P.rotateAboutGrabPoint) g.el.style.transformOrigin = `${r.gx}px ${r.gy}px`;
  }
  if (t > r.t.at(-1)) r.t.push(t), r.x.push(x), r.y.push(y);
  g.f ||= raf(() => {
    const s = dragState(x, y, r.w, r.h, r.vw, r.vh, r.ox, P);
    g.f = 0;
    paint(g.el, r.x.at(-1), r.y.at(-1), r);
    overlays(g.el, s.candidate, overlayOpacity(s.progress, P));
  });
};
onpointerup = onpointercancel = e => {
  const g = drag, r = g?.r;
  if (e.pointerId != g?.id || !(drag = 0, g.live)) return; // a tap: the card's link takes it
  cancelAnimationFrame(g.f);
  dragged = setTimeout(() => dragged = 0); // swallow only the click that ends this drag
  const c = classify(r, P), d = e.type == 'pointerup' ? c.decision : 'none', x = r.x.at(-1), y = r.y.at(-1);
  d != 'none' ? fling(g.el, d, c.velocity, x, y, 'drag', r, r) : back(g.el, x, y, c.velocity, r);
};
// A click ends a tap only: not a drag, nor a press that moved past the dead zone without becoming one
// (a drag begun as a scroll, a press on a card that was still moving); keyboard clicks (detail 0) pass.
stack.addEventListener('click', (e) => {
  const dx = e.clientX - down?.clientX;
  const dy = e.clientY - down?.clientY;
  const moved = dx ** 2 + dy ** 2 > P.tapSlopPx * P.tapSlopPx;
  if (dragged || e.detail && moved) {
    e.preventDefault();
  }
}, true);

// Spring back with the profile's return spring (critically damped under reduced motion: no bounce).
function back(el, dx, dy, v, r) {
  const q = reduce ? { ...P.returnSpring, dampingRatio: 1 } : P.returnSpring;
  const T = settleTime(q, M.hypot(dx, dy), M.hypot(v.x, v.y));
  overlays(el, '', 0);
  const frame = (t) => {
    if (!(t < T)) {
      return false;
    }
    paint(el, springState(q, t, dx, v.x)[0], springState(q, t, dy, v.y)[0], r);
    return true;
  };
  animate(el, frame, () => {
    el.classList.remove('dragging');
    el.removeAttribute('style');
  });
}

// Throw out along the release at the release speed (reduced motion: a short fade); the stack moves
// up at once (CSS transition) and the swipe is queued for delivery.
function fling(el, d, v, dx, dy, input, trace, r = geo(el)) {
  const o = throwOut(dx, dy, v, d, innerWidth, P), T = reduce ? P.throwMinMs : o.durationMs, key = uuid();
  try {
    const body = { card: +el.dataset.card, direction: d, input, trace, decisionMs: M.round(now() - shownAt) };
    save([...queue(), { key, body }]);
  } catch { return say('Not saved: this browser\'s storage is full'), back(el, dx, dy, v, r); }
  el.classList.add('dragging', 'leaving');
  el.style.zIndex = 99;
  overlays(el, d, 1);
  done.push({ el, key });
  animate(el, t => {
    const k = M.min(1, t / T);
    paint(el, dx + (o.x - dx) * k, dy + (o.y - dy) * k, r);
    if (reduce) el.style.opacity = 1 - k;
    return k < 1;
  }, () => el.remove());
  remaining--;
  shownAt = now();
  layout();
  flush();
}

// Undo: the last card springs back from the left. A swipe never sent is dropped from the queue; one
// that was sent (delivered, in flight, or its answer lost) gets a DELETE queued behind it, so it also
// waits out being offline and never overtakes its POST.
function undo() {
  const last = done.pop(), q = queue(), k = last?.key;
  // Nothing thrown on this page (after a reload, back from a detail view): the server undoes the latest
  // swipe it has (the no-script form's route) when the page says there is one and nothing waits here.
  // Once: a double click must not undo two.
  if (!last) {
    if (undoing) {
      return;
    }
    if (queue().length || D.undo != 'true') {
      return say('Nothing to undo');
    }
    undoing = 1;
    const undone = fetch(`/d/${D.deck}/undo`, { method: 'POST', signal: wait() });
    undone.then(() => location.reload(), () => {
      undoing = 0;
      say('Offline: nothing undone');
    });
    return;
  }
  save(q.some(i => i.key == k && !i.sent) ? q.filter(i => i.key != k) : [...q, { key: uuid(), undo: k }]);
  putBack(last.el);
  flush();
}
function putBack(el) {
  el.anim = 0; // ends a throw still in flight (its loop would remove the card)
  el.classList.remove('leaving');
  el.style.opacity = '';
  stack.prepend(el);
  remaining++;
  shownAt = now();
  layout();
  // Reduced motion: a short fade in place instead of the slide in from the left.
  if (!reduce) return back(el, -innerWidth, 0, { x: 0, y: 0 }, geo(el));
  el.classList.remove('dragging');
  el.removeAttribute('style'); // the throw's offset and z-index
  overlays(el, '', 0);
  el.animate([{ opacity: 0 }, {}], P.throwMinMs);
}

// Buttons and keys animate like real swipes; the form still posts when scripts are off.
function act(d, input) {
  const el = cards()[0];
  if (drag) {
    return;
  }
  if (d == 'undo') {
    return undo();
  }
  if (el && !el.anim && P.directions.includes(d) && D.allowButtons == 'true') {
    fling(el, d, { x: 0, y: 0 }, 0, 0, input);
  }
}
$('.controls').onsubmit = e => { e.preventDefault(); act(e.submitter?.value || 'undo', 'button'); };
// (A listener, not onkeydown: an on-handler returning false would cancel every other key.) Held keys
// repeat: only the first press acts.
addEventListener('keydown', e => {
  const k = e.key;
  const d = k == 'Backspace' || k == 'z' || k == 'Z' ? 'undo' : /^Arrow/.test(k) && k.slice(5).toLowerCase();
  if (d && !e.repeat && !e.metaKey && !e.ctrlKey && !e.altKey) e.preventDefault(), act(d, 'key');
});

// Delivery: one loop at a time sends the queue in order under each item's Idempotency-Key (a retry
// never makes a second row). Offline, 429 and 5xx wait (Retry-After, else 1, 2, 4, 8, 8… s) and try
// the same item again; any other answer takes it off the queue.
async function flush() {
  clearTimeout(timer);
  if (flushing) return; // the running loop picks up what was queued meanwhile
  flushing = 1;
  try {
    for (let i, r, s, j; i = queue()[0];) {
      // From now on an undo must ask the server.
      save(queue().map(q => q.key == i.key ? { ...q, sent: 1 } : q));
      const headers = { 'Content-Type': 'application/json', 'Idempotency-Key': i.key };
      const request = i.undo
        ? { method: 'DELETE', signal: wait() }
        : { method: 'POST', headers, body: JSON.stringify(i.body), signal: wait() };
      r = await fetch(i.undo ? '/api/v1/swipes/' + i.undo : D.api + '/swipes', request).catch(() => 0);
      s = r.status;
      if (!r || s == 429 || s > 499) {
        const seconds = M.min(r && +r.headers.get('Retry-After') || 2 ** backoff++, 8);
        return timer = setTimeout(flush, seconds * 1e3);
      }
      save(queue().filter(q => q.key != i.key));
      backoff = 0;
      // Refused (422: by the model; 409: already swiped; …): say why; a rejected card comes back if
      // it is not back already.
      if (s > 399 && !(i.undo && s == 404)) {
        const answer = await r.json().catch(() => 0);
        say((i.undo ? 'Undo failed: ' : 'Not counted: ') + (answer.error?.message || 'HTTP ' + s));
      }
      if (s == 422 && (j = done.findIndex(x => x.key == i.key)) >= 0) putBack(done.splice(j, 1)[0].el);
    }
  } finally { flushing = 0; }
}
ononline = () => (flush(), layout());

layout();
flush();
// Seed 000 (classic): the cards fly in from random off-screen points over enterMs, into their slots.
if (P.enterMs && !reduce) cards().forEach((el, s) => {
  s = entrance(M.random(), M.random(), M.random());
  const from = { transform: `translate(${s.x}px,${s.y}px) rotate(${s.rotation}rad)`, opacity: 0 };
  el.anim = el.animate([from], P.enterMs);
  el.anim.onfinish = () => el.anim = 0;
});
