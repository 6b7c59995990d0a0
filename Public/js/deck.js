// Swipedeck gesture shim: enhances the server-rendered stack. Every physics number comes from the
// profile JSON the server embeds (#swipe-profile) through physics.js; this file only wires the DOM.
import { classify, dragState, rotation, overlayOpacity, throwOut, springState, settleTime, unit } from './physics.js';

const $ = (s, r = document) => r.querySelector(s), now = () => performance.now(), raf = requestAnimationFrame;
const root = $('.deck-page');
if (root) deck(root);

function deck(root) {
  const P = JSON.parse($('#swipe-profile').textContent), D = root.dataset, stack = $('#stack'), form = $('.controls', root),
    toast = $('.toast', root), count = $('#remaining'), empty = $('.empty-state', root), api = D.api, QK = 'sd-queue:' + D.deck,
    reduce = matchMedia('(prefers-reduced-motion: reduce)').matches, dirs = P.directions, done = [],
    vertical = dirs.some(d => d != 'left' && d != 'right');
  const proto = stack.children[0]?.cloneNode(true);
  let dragged = 0, cursor = +D.cursor, remaining = +D.remaining, drag = null, shownAt = now(), fetching, backoff = 0, timer;

  const cards = () => [...stack.children].filter(c => !c.classList.contains('leaving'));
  const queue = () => JSON.parse(localStorage.getItem(QK) || '[]');
  const save = q => localStorage.setItem(QK, JSON.stringify(q));
  const fam = d => d.includes('left') ? 'left' : d.includes('right') ? 'right' : d;
  const say = m => { toast.textContent = m; toast.classList.add('show'); clearTimeout(say.t); say.t = setTimeout(() => toast.classList.remove('show'), 2500); };
  const paint = (el, x, y, r) => el.style.transform = `translate(${x}px,${y}px) rotate(${r}rad)`;
  const overlays = (el, d, o) => el.querySelectorAll('.overlay').forEach(v => v.style.opacity = v.classList.contains('overlay-' + fam(d)) ? o : 0);

  function layout() {
    const cs = cards(), top = cs[0];
    cs.forEach((c, i) => c.dataset.depth = i > P.stack.visible ? P.stack.visible : i);
    remaining = remaining < 0 ? 0 : remaining;
    count.textContent = remaining;
    empty.hidden = !!top;
    form.card.value = top ? top.dataset.card : '';
    form.querySelectorAll('[name=direction]').forEach(b => b.disabled = !top);
    if (cs.length <= P.stack.visible && remaining > cs.length) more();
  }

  async function more() {
    if (fetching) return;
    fetching = 1;
    try {
      const r = await fetch(`${api}/cards?cursor=${cursor}&limit=10`), j = await r.json(), pending = queue().map(q => q.body.card);
      for (const c of j.cards) {
        cursor = c.position;
        if (pending.includes(c.id) || $(`[data-card="${c.id}"]`, stack)) continue;
        if (proto) fill(stack.appendChild(proto.cloneNode(true)), c);
      }
    } catch { /* offline: the stack keeps what it has; layout() retries on the next advance */ }
    fetching = 0;
    layout();
  }

  function fill(el, c) {
    el.id = 'card-' + c.id;
    el.dataset.card = c.id;
    el.removeAttribute('style');
    $('.card-title', el).textContent = c.title;
    $('.card-subtitle', el).textContent = c.subtitle;
    $('.card-link', el).href = c.detail;
    const img = $('img', el);
    if (img) img.src = c.image;
    overlays(el, '', 0);
  }

  // Pointer: one active pointer; a small dead zone keeps taps on links working.
  stack.style.touchAction = vertical ? 'none' : 'pan-y';
  stack.addEventListener('pointerdown', e => {
    const el = cards()[0];
    if (drag || !el || !el.contains(e.target) || e.button > 0 || el.anim) return;
    const b = el.getBoundingClientRect();
    drag = { el, id: e.pointerId, t0: e.timeStamp, x0: e.clientX, y0: e.clientY, t: [0], x: [0], y: [0], w: el.offsetWidth, h: el.offsetHeight,
      vw: innerWidth, vh: innerHeight, gx: e.clientX - b.left, gy: e.clientY - b.top, ox: e.clientX, oy: e.clientY, live: 0 };
  });
  stack.addEventListener('pointermove', e => {
    const g = drag;
    if (!g || e.pointerId != g.id) return;
    const t = e.timeStamp - g.t0, x = e.clientX - g.x0, y = e.clientY - g.y0;
    if (!g.live) {
      // Dead zone: a tap (or a vertical scroll when only left/right are enabled) is not a drag.
      if (x * x + y * y < P.tapSlopPx * P.tapSlopPx) return;
      if (!vertical && x * x < y * y) return drag = null;
      g.live = 1;
      g.el.setPointerCapture(g.id);
      g.el.classList.add('dragging');
      g.el.style.transformOrigin = P.rotateAboutGrabPoint ? `${g.gx}px ${g.gy}px` : '';
    }
    if (t > g.t[g.t.length - 1]) g.t.push(t), g.x.push(x), g.y.push(y);
    if (!g.frame) g.frame = raf(() => {
      const n = g.t.length - 1, dx = g.x[n], dy = g.y[n], s = dragState(dx, dy, g.w, g.h, g.vw, g.vh, g.ox, P);
      g.frame = 0;
      paint(g.el, dx, dy, rotation(dx, g.w, g.h, g.vw, g.gy, P));
      overlays(g.el, s.candidate, overlayOpacity(s.progress, P));
    });
  });
  const end = e => {
    const g = drag;
    if (!g || e.pointerId != g.id) return;
    drag = null;
    // A tap (not a drag) on the card opens its detail view; links inside keep their own target.
    if (!g.live) return e.type == 'pointerup' && !e.target.closest('a') && (location.href = $('.card-link', g.el).href);
    cancelAnimationFrame(g.frame);
    // A finished drag must not also click the link under the finger.
    dragged = setTimeout(() => dragged = 0);
    const { el, t, x, y } = g, trace = { t, x, y, w: g.w, h: g.h, vw: g.vw, vh: g.vh, gx: g.gx, gy: g.gy, ox: g.ox, oy: g.oy },
      c = classify(trace, P), n = t.length - 1;
    if (e.type == 'pointerup' && !c.rejection && c.decision != 'none') fling(el, c.decision, c.velocity, x[n], y[n], 'drag', trace, g);
    else back(el, x[n], y[n], c.velocity, g);
  };
  stack.addEventListener('click', e => dragged && e.preventDefault(), true);
  stack.addEventListener('pointerup', end);
  stack.addEventListener('pointercancel', end);

  // Spring back with the profile's return spring (critically damped under reduced motion: no bounce).
  function back(el, dx, dy, v, g, then) {
    const q = reduce ? { ...P.returnSpring, dampingRatio: 1 } : P.returnSpring,
      T = settleTime(q, Math.hypot(dx, dy), Math.hypot(v.x, v.y)), t0 = now();
    el.anim = 1;
    const step = () => {
      const t = now() - t0, [x] = springState(q, t, dx, v.x), [y] = springState(q, t, dy, v.y);
      if (t < T) {
        paint(el, x, y, rotation(x, g.w, g.h, g.vw, g.gy, P));
        overlays(el, '', 0);
        return raf(step);
      }
      el.anim = 0;
      el.classList.remove('dragging');
      el.removeAttribute('style');
      then && then();
    };
    step();
  }

  // Throw out along the release at the release speed, then the stack moves up (CSS transition
  // from /css/stack/{profile}.css) and the swipe is queued for the server.
  function fling(el, d, v, dx, dy, input, trace, g) {
    const o = throwOut(dx, dy, v, d, innerWidth, P), t0 = now(), ms = o.durationMs;
    g = g || { w: el.offsetWidth, h: el.offsetHeight, vw: innerWidth, gy: 0 };
    el.anim = 1;
    el.classList.add('dragging', 'leaving');
    el.style.zIndex = 99;
    overlays(el, d, 1);
    const item = { key: crypto.randomUUID(), body: { card: +el.dataset.card, direction: d, input, decisionMs: Math.round(now() - shownAt) } };
    if (trace) item.body.trace = trace;
    done.push({ el, key: item.key, remainingBefore: remaining });
    save([...queue(), item]);
    const step = () => {
      const k = Math.min(1, (now() - t0) / ms), x = dx + (o.x - dx) * k, y = dy + (o.y - dy) * k;
      paint(el, x, y, rotation(x, g.w, g.h, g.vw, g.gy, P));
      if (reduce) el.style.opacity = 1 - k;
      if (k < 1) return raf(step);
      el.anim = 0;
      el.remove();
    };
    step();
    remaining--;
    shownAt = now();
    layout();
    flush();
  }

  // Buttons and keys animate like real swipes; the form still posts when scripts are off.
  const act = (d, input) => {
    const el = cards()[0];
    if (!el || el.anim || drag) return;
    if (d == 'undo') return undo();
    if (dirs.includes(d) && D.allowButtons == 'true') fling(el, d, { x: 0, y: 0 }, 0, 0, input);
  };
  form.addEventListener('submit', e => {
    e.preventDefault();
    const b = e.submitter;
    act(b && b.classList.contains('ctl-undo') ? 'undo' : b ? b.value : 'right', 'button');
  });
  addEventListener('keydown', e => {
    if (e.target.closest('input,textarea,select') || e.metaKey || e.ctrlKey || e.altKey) return;
    const d = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down', Backspace: 'undo', z: 'undo', Z: 'undo' }[e.key];
    if (d) e.preventDefault(), act(d, 'key');
  });

  // Undo: the last card comes back (springing from where it left) and the swipe is undone on the server.
  async function undo() {
    const last = done.pop();
    if (!last) return say('Nothing to undo');
    const { el, key } = last, q = queue(), queued = q.find(i => i.key == key);
    if (queued) save(q.filter(i => i !== queued));
    else fetch('/api/v1/swipes/' + encodeURIComponent(key), { method: 'DELETE' }).then(r => r.ok || say('Undo failed'), () => say('Offline: undo failed'));
    putBack(el);
  }

  function putBack(el) {
    const u = unit('left');
    el.classList.remove('leaving');
    stack.prepend(el);
    remaining++;
    shownAt = now();
    el.style.opacity = '';
    layout();
    back(el, u.x * innerWidth, 0, { x: 0, y: 0 }, { w: el.offsetWidth, h: el.offsetHeight, vw: innerWidth, gy: 0 });
  }

  // Delivery: unacknowledged swipes live in localStorage until the server answers; retries reuse
  // the Idempotency-Key, so a retry after a lost answer never makes a second row.
  async function flush() {
    clearTimeout(timer);
    for (const item of queue()) {
      let r;
      try {
        r = await fetch(`${api}/swipes`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Idempotency-Key': item.key }, body: JSON.stringify(item.body) });
      } catch { r = null; }
      if (r && (r.ok || r.status == 409 || r.status == 404 || r.status == 422)) {
        save(queue().filter(i => i.key != item.key));
        backoff = 0;
        if (r.status == 422) {
          const j = await r.json().catch(() => ({})), i = done.findIndex(x => x.key == item.key);
          say('Not counted: ' + (j.error ? j.error.message : 'rejected'));
          if (i >= 0) putBack(done.splice(i, 1)[0].el);
        }
        continue;
      }
      const wait = r && r.status == 429 ? +r.headers.get('Retry-After') : 2 ** backoff++;
      timer = setTimeout(flush, Math.min(wait, 8) * 1000);
      return;
    }
  }
  addEventListener('online', flush);

  // Cards still waiting from a previous visit are not shown again.
  for (const q of queue()) { const el = $(`[data-card="${q.body.card}"]`, stack); if (el) el.remove(), remaining--; }
  layout();
  flush();
}
