// Swipedeck gesture shim: enhances the server-rendered stack. Every physics number comes from the
// profile JSON the server embeds (#swipe-profile) through physics.js; this file only wires the DOM.
import { classify, dragState, rotation, overlayOpacity, throwOut, springState, settleTime, unit, entrance } from './physics.js';

const $ = (s, r = document) => r.querySelector(s), now = () => performance.now(), raf = requestAnimationFrame, root = $('.deck-page');
if (root) deck(root);

function deck(root) {
  const P = JSON.parse($('#swipe-profile').textContent), D = root.dataset, stack = $('#stack'), form = $('.controls', root),
    toast = $('.toast', root), QK = 'sd-queue:' + D.deck, reduce = matchMedia('(prefers-reduced-motion: reduce)').matches,
    dirs = P.directions, done = [], vertical = dirs.some(d => !/^(left|right)$/.test(d)), proto = stack.children[0]?.cloneNode(true);
  let dragged = 0, cursor = +D.cursor, remaining = +D.remaining, drag, shownAt = now(), fetching, backoff = 0, timer, sending, posting, flushing;

  const cards = () => [...stack.children].filter(c => !c.classList.contains('leaving'));
  const queue = () => JSON.parse(localStorage.getItem(QK) || '[]'), save = q => localStorage.setItem(QK, JSON.stringify(q));
  const say = m => { toast.textContent = m; toast.classList.add('show'); clearTimeout(say.t); say.t = setTimeout(() => toast.classList.remove('show'), 2500); };
  // transform only during motion; overlays of the direction's family (diagonals show left/right)
  const paint = (el, x, y, g) => el.style.transform = `translate(${x}px,${y}px) rotate(${rotation(x, g.w, g.h, g.vw, g.gy, P)}rad)`;
  const overlays = (el, d, o) => el.querySelectorAll('.overlay').forEach(v => v.style.opacity = v.classList.contains('overlay-' + (d.match(/left|right/) || [d])[0]) ? o : 0);
  const geo = el => ({ w: el.offsetWidth, h: el.offsetHeight, vw: innerWidth, gy: 0 });
  // Runs f(elapsed ms) each frame until it returns false; the element ignores new drags meanwhile.
  // A newer animation of the same element (undo during a throw) silently ends the older one.
  const animate = (el, f, then) => { const t0 = now(), a = el.anim = {}; (function s() { el.anim == a && (f(now() - t0) ? raf(s) : (el.anim = 0, then())); })(); };

  function layout() {
    const cs = cards(), top = cs[0];
    cs.forEach((c, i) => c.dataset.depth = Math.min(i, P.stack.visible));
    $('#remaining').textContent = remaining = Math.max(remaining, 0);
    $('.empty-state', root).hidden = !!top;
    form.card.value = top ? top.dataset.card : '';
    form.querySelectorAll('[name=direction]').forEach(b => b.disabled = !top);
    if (cs.length <= 2 * P.stack.visible && remaining > cs.length && !fetching) more();
  }

  // More cards before the stack runs dry (the server skips this participant's swiped cards).
  async function more() {
    fetching = 1;
    try {
      const j = await (await fetch(`${D.api}/cards?cursor=${cursor}&limit=10`)).json(), pending = queue().map(q => q.body.card);
      for (const c of j.cards) {
        cursor = c.position;
        if (proto && !pending.includes(c.id) && !$(`[data-card="${c.id}"]`, stack)) {
          const el = stack.appendChild(proto.cloneNode(true)), img = $('img', el);
          el.id = 'card-' + (el.dataset.card = c.id);
          $('.card-title', el).textContent = c.title;
          $('.card-subtitle', el).textContent = c.subtitle;
          $('.card-link', el).href = c.detail;
          if (img) img.src = c.image;
        }
      }
    } catch { /* offline: keep what we have; the next advance tries again */ }
    fetching = 0;
    layout();
  }

  // Pointer Events: one active pointer, captured once the drag starts; a dead zone of
  // tapSlopPx keeps taps (links, the detail view) working; no layout reads while moving.
  stack.style.touchAction = vertical ? 'none' : 'pan-y';
  stack.addEventListener('pointerdown', e => {
    const el = cards()[0], b = el && el.getBoundingClientRect();
    if (drag || !el || !el.contains(e.target) || e.button > 0 || el.anim) return;
    drag = { el, id: e.pointerId, t0: e.timeStamp, t: [0], x: [0], y: [0], ...geo(el), vh: innerHeight,
      gx: e.clientX - b.left, gy: e.clientY - b.top, ox: e.clientX, oy: e.clientY };
  });
  stack.addEventListener('pointermove', e => {
    const g = drag;
    if (!g || e.pointerId != g.id) return;
    const t = e.timeStamp - g.t0, x = e.clientX - g.ox, y = e.clientY - g.oy;
    if (!g.live) {
      if (x * x + y * y < P.tapSlopPx * P.tapSlopPx) return;
      if (!vertical && x * x < y * y) return drag = 0; // a vertical move is the page scrolling
      g.live = 1;
      g.el.setPointerCapture(g.id);
      g.el.classList.add('dragging');
      g.el.style.transformOrigin = P.rotateAboutGrabPoint ? `${g.gx}px ${g.gy}px` : '';
    }
    if (t > g.t.at(-1)) g.t.push(t), g.x.push(x), g.y.push(y);
    g.f = g.f || raf(() => {
      const s = dragState(x, y, g.w, g.h, g.vw, g.vh, g.ox, P);
      g.f = 0;
      paint(g.el, g.x.at(-1), g.y.at(-1), g);
      overlays(g.el, s.candidate, overlayOpacity(s.progress, P));
    });
  });
  const end = e => {
    const g = drag;
    if (!g || e.pointerId != g.id) return;
    drag = 0;
    // A tap (not a drag) on the card opens its detail view; links inside keep their own target.
    if (!g.live) return e.type == 'pointerup' && !e.target.closest('a') && (location.href = $('.card-link', g.el).href);
    cancelAnimationFrame(g.f);
    dragged = setTimeout(() => dragged = 0); // swallow only the click that ends this drag
    const { el, t, x, y } = g, trace = { t, x, y, w: g.w, h: g.h, vw: g.vw, vh: g.vh, gx: g.gx, gy: g.gy, ox: g.ox, oy: g.oy },
      c = classify(trace, P);
    e.type == 'pointerup' && c.decision != 'none' ? fling(el, c.decision, c.velocity, x.at(-1), y.at(-1), 'drag', trace, g)
      : back(el, x.at(-1), y.at(-1), c.velocity, g);
  };
  stack.addEventListener('click', e => dragged && e.preventDefault(), true);
  stack.addEventListener('pointerup', end);
  stack.addEventListener('pointercancel', end);

  // Spring back with the profile's return spring (critically damped under reduced motion: no bounce).
  function back(el, dx, dy, v, g) {
    const q = reduce ? { ...P.returnSpring, dampingRatio: 1 } : P.returnSpring, T = settleTime(q, Math.hypot(dx, dy), Math.hypot(v.x, v.y));
    overlays(el, '', 0);
    animate(el, t => t < T && paint(el, springState(q, t, dx, v.x)[0], springState(q, t, dy, v.y)[0], g), () => {
      el.classList.remove('dragging');
      el.removeAttribute('style');
    });
  }

  // Throw out along the release at the release speed (reduced motion: a short fade); the stack
  // moves up at once (CSS transition from /css/stack/{profile}.css) and the swipe is queued.
  function fling(el, d, v, dx, dy, input, trace, g = geo(el)) {
    const o = throwOut(dx, dy, v, d, innerWidth, P), item = { key: crypto.randomUUID(), body: { card: +el.dataset.card, direction: d, input, trace, decisionMs: Math.round(now() - shownAt) } };
    el.classList.add('dragging', 'leaving');
    el.style.zIndex = 99;
    overlays(el, d, 1);
    done.push({ el, key: item.key });
    save([...queue(), item]);
    animate(el, t => {
      const k = Math.min(1, t / (reduce ? P.throwMinMs : o.durationMs));
      paint(el, dx + (o.x - dx) * k, dy + (o.y - dy) * k, g);
      if (reduce) el.style.opacity = 1 - k;
      return k < 1;
    }, () => el.remove());
    remaining--;
    shownAt = now();
    layout();
    flush();
  }

  // Buttons and keys animate like real swipes; the form still posts when scripts are off.
  const act = (d, input) => {
    const el = cards()[0];
    if (d == 'undo') return undo();
    if (el && !el.anim && !drag && dirs.includes(d) && D.allowButtons == 'true') fling(el, d, { x: 0, y: 0 }, 0, 0, input);
  };
  form.addEventListener('submit', e => {
    e.preventDefault();
    const b = e.submitter;
    act(b.classList.contains('ctl-undo') ? 'undo' : b.value, 'button');
  });
  addEventListener('keydown', e => {
    const d = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down', Backspace: 'undo', z: 'undo', Z: 'undo' }[e.key];
    if (d && !e.target.closest('input,textarea,select') && !e.metaKey && !e.ctrlKey && !e.altKey) e.preventDefault(), act(d, 'key');
  });

  // Undo: the last card springs back from where it left, and the swipe is undone on the server
  // (or simply dropped from the queue if the server never had it).
  function undo() {
    const last = done.pop(), q = queue(), k = last?.key, busy = k == sending && posting;
    if (!last) return say('Nothing to undo');
    save(q.filter(i => i.key != k));
    // Delivered, or being posted right now: undo on the server (once that POST has landed).
    if (busy || !q.some(i => i.key == k)) Promise.resolve(busy).then(() => fetch('/api/v1/swipes/' + k, { method: 'DELETE' }))
      .then(r => r.ok || r.status == 404 || say('Undo failed'), () => say('Offline: undo failed'));
    putBack(last.el);
  }
  function putBack(el) {
    el.classList.remove('leaving');
    el.style.opacity = '';
    stack.prepend(el);
    remaining++;
    shownAt = now();
    layout();
    back(el, unit('left').x * innerWidth, 0, { x: 0, y: 0 }, geo(el));
  }

  // Delivery: unacknowledged swipes wait in localStorage and are retried with backoff (also after
  // a reload or while offline) under the same Idempotency-Key, so a retry never makes a second row.
  async function flush() {
    clearTimeout(timer);
    if (flushing) return; // one delivery loop at a time: it picks up swipes queued meanwhile
    flushing = 1;
    for (let item; (item = queue()[0]);) {
      sending = item.key;
      const r = await (posting = fetch(D.api + '/swipes', { method: 'POST', headers: { 'Content-Type': 'application/json', 'Idempotency-Key': item.key }, body: JSON.stringify(item.body) }).catch(() => 0));
      sending = 0;
      if (!r || r.status == 429 || r.status >= 500) return flushing = 0, timer = setTimeout(flush, Math.min(r ? +r.headers.get('Retry-After') || 1 : 2 ** backoff++, 8) * 1e3);
      save(queue().filter(i => i.key != item.key));
      backoff = 0;
      if (r.status == 422) {
        const j = await r.json().catch(() => ({})), i = done.findIndex(x => x.key == item.key);
        say('Not counted: ' + (j.error ? j.error.message : 'rejected'));
        if (i >= 0) putBack(done.splice(i, 1)[0].el);
      }
    }
    flushing = 0;
  }
  addEventListener('online', flush);

  // Cards still waiting from a previous visit are not shown again.
  for (const q of queue()) { const el = $(`[data-card="${q.body.card}"]`, stack); if (el) el.remove(), remaining--; }
  layout();
  flush();
  // Seed 000 (classic): the cards fly in from random off-screen points over enterMs.
  if (P.enterMs && !reduce) cards().forEach(el => {
    const s = entrance(Math.random(), Math.random(), Math.random());
    el.classList.add('dragging');
    animate(el, t => {
      const k = 1 - Math.min(1, t / P.enterMs);
      el.style.transform = `translate(${s.x * k}px,${s.y * k}px) rotate(${s.rotation * k}rad)`;
      el.style.opacity = 1 - k;
      return k > 0;
    }, () => { el.classList.remove('dragging'); el.removeAttribute('style'); });
  });
}
