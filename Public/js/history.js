// My-history page: rows slide left to reveal Undo / Flip (seed 004, `reveal` profile) and the
// list moves like a spring list (seed 003, `springList` profile). Constants come from the
// profiles the server embeds; the maths from physics.js.
import { classify, slideDuration, springLag, edgeSpread, springState } from './physics.js';
import { rooted } from './root.js';

const $ = (s, r = document) => r.querySelector(s), now = () => performance.now(), raf = requestAnimationFrame;
const root = $('.history');
// A closed deck's picks cannot change: its rows have no actions to reveal.
if (root && root.dataset.closed !== 'true') {
  history(root);
}

function history(root) {
  const R = JSON.parse($('#reveal-profile').textContent), S = JSON.parse($('#list-profile').textContent),
    list = $('#rows'), D = root.dataset, reduce = matchMedia('(prefers-reduced-motion: reduce)').matches;
  let open = null, animating = 0, drag = null, dragged = 0;
  // A short message in the page's status line (cleared after a while; shown while it has text).
  const toast = $('.toast', root);
  let toastTimer = 0;
  function say(message) {
    toast.textContent = message;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => {
      toast.textContent = '';
    }, 3000);
  }

  const travel = row => $('.row-actions', row).offsetWidth;
  const front = row => $('.row-front', row);
  const setX = (row, x) => { row.x = x; front(row).style.transform = x ? `translateX(${x}px)` : ''; };

  // Linear slide to open (−travel) or closed (0), lasting at most maxSlideMs, scaled by the distance left.
  function slide(row, opening) {
    const from = row.x || 0, to = opening ? -travel(row) : 0, t0 = now(),
      ms = slideDuration(from, travel(row), opening, R.reveal.maxSlideMs);
    if (opening && open && open !== row) slide(open, false);
    open = opening ? row : open === row ? null : open;
    row.classList.toggle('open', opening);
    animating++;
    // A newer slide (or a drag) of the same row ends this one: two loops would fight over its offset.
    const tok = row.tok = {}, step = () => {
      if (row.tok !== tok) return animating--;
      const k = ms > 0 ? Math.min(1, (now() - t0) / ms) : 1;
      setX(row, from + (to - from) * k);
      if (k < 1) return raf(step);
      animating--;
    };
    step();
  }

  list.addEventListener('pointerdown', e => {
    const row = e.target.closest('.row');
    if (!row || drag || e.button > 0 || e.target.closest('.row-actions')) return;
    drag = {
      row,
      id: e.pointerId,
      t0: e.timeStamp,
      x0: e.clientX,
      y0: e.clientY,
      base: row.x || 0,
      t: [0],
      x: [0],
      y: [0],
      w: row.offsetWidth,
      h: row.offsetHeight,
      live: 0,
    };
  });
  list.addEventListener('pointermove', e => {
    const g = drag;
    if (!g || e.pointerId != g.id) return;
    const t = e.timeStamp - g.t0, x = e.clientX - g.x0, y = e.clientY - g.y0;
    if (!g.live) {
      if (x * x + y * y < R.tapSlopPx * R.tapSlopPx) return;
      if (x * x < y * y) return drag = null; // a vertical move is a scroll
      g.live = 1;
      g.row.tok = 0; // the finger takes over from a slide in progress
      g.row.setPointerCapture(g.id);
      if (open && open !== g.row) slide(open, false);
    }
    if (t > g.t[g.t.length - 1]) g.t.push(t), g.x.push(x), g.y.push(y);
    const m = -travel(g.row), v = g.base + x;
    setX(g.row, v > 0 ? 0 : v < m ? m : v);
  });
  const end = e => {
    const g = drag;
    if (!g || e.pointerId != g.id) return;
    drag = null;
    // A tap (or a click) on a row opens or closes it: the actions are found without a swipe, and on
    // a desktop.
    if (!g.live) return e.type == 'pointerup' && !animating && slide(g.row, open !== g.row);
    dragged = setTimeout(() => dragged = 0); // the click that ends this drag (if any) comes before this runs
    const trace = { t: g.t, x: g.x, y: g.y, w: g.w, h: g.h, vw: innerWidth, vh: innerHeight, gx: 0, gy: 0 };
    const c = classify(trace, R);
    slide(g.row, c.decision == 'none' ? g.base < 0 : c.decision == 'left');
  };
  list.addEventListener('pointerup', end);
  list.addEventListener('pointercancel', end);
  // No tap (or action) goes through while a row is sliding.
  list.addEventListener('click', e => {
    if (animating || dragged) {
      e.preventDefault();
      e.stopPropagation();
    }
  }, true);

  // Actions call the API and update the row in place; without JS they are plain form posts.
  list.addEventListener('submit', async e => {
    e.preventDefault();
    const row = e.target.closest('.row');
    const id = encodeURIComponent(row.dataset.swipe);
    const flip = e.target.action.endsWith('/flip');
    const d = row.dataset.direction;
    const to = d.includes('left') ? d.replace('left', 'right') : d.replace('right', 'left');
    const flipBody = JSON.stringify({ direction: to });
    const request = flip
      ? { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: flipBody }
      : { method: 'DELETE' };
    const r = await fetch(rooted('/api/v1/swipes/' + id + (flip ? '/flip' : '')), request).catch(() => null);
    // Nothing changed (the row stays as it was): say why, briefly.
    if (!r) return say('Offline: nothing changed. Try again.');
    if (!r.ok) {
      const answer = await r.json().catch(() => 0);
      return say('Not changed: ' + (answer.error?.message || 'HTTP ' + r.status));
    }
    if (!flip) {
      // A keyboard user lands on the next row's Undo (which opens that row), not on the page.
      const next = row.querySelector(':focus-visible') && row.nextElementSibling?.querySelector('.act-undo');
      if (open === row) open = null;
      row.remove();
      say('Undone: ' + $('.row-text b', row).textContent);
      return next?.focus();
    }
    // A flipped drag is stored as a new decision with an id of its own.
    const answer = await r.json().catch(() => null);
    if (answer?.swipe?.id) row.dataset.swipe = answer.swipe.id;
    row.dataset.direction = to;
    const b = $('.badge', row), fam = to.includes('left') ? 'left' : to.includes('right') ? 'right' : to;
    b.className = 'badge badge-' + to;
    b.textContent = D[fam];
    $('.act-flip', row).firstChild.textContent = 'Flip to ' + D[d.includes('left') ? 'left' : 'right'];
    say('Flipped to ' + D[fam]);
    // A keyboard user keeps the row open (the focused button stays visible); a pointer user sees it close.
    if (!row.querySelector(':focus-visible')) slide(row, false);
  });

  // Keyboard: focus on a row's hidden actions opens the row; leaving them closes it; Escape closes it.
  list.addEventListener('focusin', e => {
    const row = e.target.closest('.row');
    if (row && e.target.closest('.row-actions') && open !== row) slide(row, true);
  });
  list.addEventListener('focusout', e => {
    const row = e.target.closest('.row');
    if (row && open === row && !row.contains(e.relatedTarget)) slide(row, false);
  });
  addEventListener('keydown', e => { if (e.key == 'Escape' && open) slide(open, false); });

  // The open row closes when the list scrolls.
  let lastY = scrollY, touchY = innerHeight / 2;
  addEventListener('scroll', () => {
    if (open) slide(open, false);
    if (!reduce) lag(scrollY - lastY);
    lastY = scrollY;
  }, { passive: true });
  addEventListener('pointermove', e => { touchY = e.clientY; }, { passive: true });

  // Spring list: rows lag a scroll by their distance from the finger / scrollResistance, then
  // spring back to their anchors; pulled past the top, the gaps spread by overscroll / boundaryResistance.
  const rows = () => [...list.children];
  const q = { responseMs: 1000 / S.springList.frequencyHz, dampingRatio: S.springList.damping };
  let offsets = new Map(), t0 = 0, frame = 0;
  function lag(delta) {
    const all = rows();
    all.forEach(r => {
      // The row's anchor, not where its lag has put it (else the lag feeds on itself); a row never lags
      // more than its own height.
      const c = r.getBoundingClientRect(), o0 = offsets.get(r) || 0,
        o = o0 + springLag(delta, touchY, c.top - o0 + c.height / 2, S.springList.scrollResistance);
      offsets.set(r, Math.max(-c.height, Math.min(c.height, o)));
    });
    settle();
  }
  function settle() {
    t0 = now();
    const start = new Map(offsets);
    cancelAnimationFrame(frame);
    const step = () => {
      let moving = 0;
      start.forEach((o0, r) => {
        const [o] = springState(q, now() - t0, o0, 0);
        offsets.set(r, o);
        r.style.transform = Math.abs(o) > 0.1 ? `translateY(${o}px)` : '';
        moving |= Math.abs(o) > 0.1;
      });
      if (moving) frame = raf(step);
      else offsets = new Map();
    };
    frame = raf(step);
  }
  let pull = null;
  list.addEventListener('touchstart', e => {
    if (!reduce && scrollY <= 0) {
      pull = e.touches[0].clientY;
    }
  }, { passive: true });
  list.addEventListener('touchmove', e => {
    if (pull == null) return;
    const over = e.touches[0].clientY - pull, all = rows();
    if (over <= 0) return;
    all.forEach((r, i) => {
      offsets.set(r, edgeSpread(i, all.length, over, true, S.springList.boundaryResistance));
      r.style.transform = `translateY(${offsets.get(r)}px)`;
    });
  }, { passive: true });
  list.addEventListener('touchend', () => {
    if (pull != null) {
      pull = null;
      settle();
    }
  });
}
