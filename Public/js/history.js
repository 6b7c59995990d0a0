// My-history page: rows slide left to reveal Undo / Flip (seed 004, `reveal` profile) and the
// list moves like a spring list (seed 003, `springList` profile). Constants come from the
// profiles the server embeds; the maths from physics.js.
//
// Layout of this file: pure helpers, then createHistoryPage, which wires one history page.
import { Classification, RevealRow, SpringList, dampedSpring } from './physics.js';
import { rooted } from './root.js';
import { createToast } from './toast.js';

// ---------------------------------------------------------------- pure helpers

/** A row's spring offset below this many px counts as at rest: its transform goes (invisible). */
const restOffsetPx = 0.1;

/** The direction a flip turns `direction` into: left ↔ right, the vertical part kept (up, down stay). */
function flippedDirection(direction) {
  if (direction.includes('left')) {
    return direction.replace('left', 'right');
  }
  return direction.replace('right', 'left');
}

/** The side of a direction ('left', 'right'), or the direction itself without one (a label key). */
function sideOf(direction) {
  if (direction.includes('left')) {
    return 'left';
  }
  if (direction.includes('right')) {
    return 'right';
  }
  return direction;
}

/** `value` limited to [lo, hi]. */
function clamp(value, lo, hi) {
  return Math.max(lo, Math.min(hi, value));
}

// ---------------------------------------------------------------- the page

/**
 * Wires one history page: `root` is the server's <section class="history"> (its data-* attributes
 * hold the direction labels), `revealProfile` the rows' profile, `listProfile` the list's.
 */
function createHistoryPage(root, revealProfile, listProfile) {
  const labels = root.dataset;
  const list = root.querySelector('#rows');
  const reduceMotion = matchMedia('(prefers-reduced-motion: reduce)').matches;
  const say = createToast(root.querySelector('.toast'));
  const now = () => performance.now();
  // The open row, if any.
  let openRow = null;
  // Row slides in progress: no tap or action goes through while one runs.
  let slidesRunning = 0;
  // The row drag in progress: its trace so far and where it began.
  let drag = null;
  // Set until the click that ends a drag has been swallowed.
  let dragJustEnded = 0;

  function actionsWidth(row) {
    return row.querySelector('.row-actions').offsetWidth;
  }

  function setOffset(row, x) {
    row.x = x;
    row.querySelector('.row-front').style.transform = x ? `translateX(${x}px)` : '';
  }

  // Linear slide to open (−travel) or closed (0), lasting at most maxSlideMs, scaled by the distance
  // left.
  function slide(row, opening) {
    const from = row.x || 0;
    const to = opening ? -actionsWidth(row) : 0;
    const startedAt = now();
    const ms = RevealRow.slideDuration(from, actionsWidth(row), opening, revealProfile.reveal.maxSlideMs);
    if (opening && openRow && openRow !== row) {
      slide(openRow, false);
    }
    if (opening) {
      openRow = row;
    } else if (openRow === row) {
      openRow = null;
    }
    row.classList.toggle('open', opening);
    slidesRunning += 1;
    // A newer slide (or a drag) of the same row ends this one: two loops would fight over its offset.
    const token = {};
    row.slideToken = token;
    const step = () => {
      if (row.slideToken !== token) {
        slidesRunning -= 1;
        return;
      }
      const k = ms > 0 ? Math.min(1, (now() - startedAt) / ms) : 1;
      setOffset(row, from + (to - from) * k);
      if (k < 1) {
        requestAnimationFrame(step);
      } else {
        slidesRunning -= 1;
      }
    };
    step();
  }

  function onPointerDown(event) {
    const row = event.target.closest('.row');
    if (!row || drag || event.button > 0 || event.target.closest('.row-actions')) {
      return;
    }
    drag = {
      row,
      pointerId: event.pointerId,
      startTime: event.timeStamp,
      startX: event.clientX,
      startY: event.clientY,
      base: row.x || 0,
      t: [0],
      x: [0],
      y: [0],
      w: row.offsetWidth,
      h: row.offsetHeight,
      live: false,
    };
  }

  function onPointerMove(event) {
    if (!drag || event.pointerId !== drag.pointerId) {
      return;
    }
    const t = event.timeStamp - drag.startTime;
    const x = event.clientX - drag.startX;
    const y = event.clientY - drag.startY;
    if (!drag.live) {
      if (x * x + y * y < revealProfile.tapSlopPx * revealProfile.tapSlopPx) {
        return;
      }
      if (x * x < y * y) {
        // A vertical move is a scroll.
        drag = null;
        return;
      }
      drag.live = true;
      // The finger takes over from a slide in progress.
      drag.row.slideToken = null;
      drag.row.setPointerCapture(drag.pointerId);
      if (openRow && openRow !== drag.row) {
        slide(openRow, false);
      }
    }
    if (t > drag.t.at(-1)) {
      drag.t.push(t);
      drag.x.push(x);
      drag.y.push(y);
    }
    setOffset(drag.row, clamp(drag.base + x, -actionsWidth(drag.row), 0));
  }

  function onPointerEnd(event) {
    const ended = drag;
    if (!ended || event.pointerId !== ended.pointerId) {
      return;
    }
    drag = null;
    // A tap (or a click) on a row opens or closes it: the actions are found without a swipe, and on
    // a desktop.
    if (!ended.live) {
      if (event.type === 'pointerup' && !slidesRunning) {
        slide(ended.row, openRow !== ended.row);
      }
      return;
    }
    // The click that ends this drag (if any) comes before this timer runs.
    dragJustEnded = setTimeout(() => {
      dragJustEnded = 0;
    });
    const trace = {
      t: ended.t,
      x: ended.x,
      y: ended.y,
      w: ended.w,
      h: ended.h,
      vw: innerWidth,
      vh: innerHeight,
      gx: 0,
      gy: 0,
    };
    const decision = Classification.of(trace, null, revealProfile).decision;
    slide(ended.row, decision === 'none' ? ended.base < 0 : decision === 'left');
  }

  // No tap (or action) goes through while a row is sliding.
  function onClickCapture(event) {
    if (slidesRunning || dragJustEnded) {
      event.preventDefault();
      event.stopPropagation();
    }
  }

  // Actions call the API and update the row in place; without JS they are plain form posts.
  async function onSubmit(event) {
    event.preventDefault();
    const row = event.target.closest('.row');
    const id = encodeURIComponent(row.dataset.swipe);
    const flip = event.target.action.endsWith('/flip');
    const direction = row.dataset.direction;
    const flipped = flippedDirection(direction);
    const flipBody = JSON.stringify({ direction: flipped });
    const request = flip
      ? { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: flipBody }
      : { method: 'DELETE' };
    const url = rooted('/api/v1/swipes/' + id + (flip ? '/flip' : ''));
    // No answer at all (offline): the row stays as it was.
    const response = await fetch(url, request).catch(() => null);
    if (!response) {
      say('Offline: nothing changed. Try again.');
      return;
    }
    if (!response.ok) {
      // An error body that is not JSON still gets its status said.
      const failure = await response.json().catch(() => null);
      say('Not changed: ' + (failure?.error?.message || 'HTTP ' + response.status));
      return;
    }
    if (!flip) {
      // A keyboard user lands on the next row's Undo (which opens that row), not on the page.
      const next = row.querySelector(':focus-visible') && row.nextElementSibling?.querySelector('.act-undo');
      if (openRow === row) {
        openRow = null;
      }
      row.remove();
      say('Undone: ' + row.querySelector('.row-text b').textContent);
      next?.focus();
      return;
    }
    // A flipped drag is stored as a new decision with an id of its own (a body that is not JSON keeps
    // the old one).
    const answer = await response.json().catch(() => null);
    if (answer?.swipe?.id) {
      row.dataset.swipe = answer.swipe.id;
    }
    row.dataset.direction = flipped;
    const badge = row.querySelector('.badge');
    const side = sideOf(flipped);
    badge.className = 'badge badge-' + flipped;
    badge.textContent = labels[side];
    const flipBackSide = direction.includes('left') ? 'left' : 'right';
    row.querySelector('.act-flip').firstChild.textContent = 'Flip to ' + labels[flipBackSide];
    say('Flipped to ' + labels[side]);
    // A keyboard user keeps the row open (the focused button stays visible); a pointer user sees it
    // close.
    if (!row.querySelector(':focus-visible')) {
      slide(row, false);
    }
  }

  // Keyboard: focus on a row's hidden actions opens the row; leaving them closes it; Escape closes it.
  function onFocusIn(event) {
    const row = event.target.closest('.row');
    if (row && event.target.closest('.row-actions') && openRow !== row) {
      slide(row, true);
    }
  }

  function onFocusOut(event) {
    const row = event.target.closest('.row');
    if (row && openRow === row && !row.contains(event.relatedTarget)) {
      slide(row, false);
    }
  }

  function onKeyDown(event) {
    if (event.key === 'Escape' && openRow) {
      slide(openRow, false);
    }
  }

  // Spring list: rows lag a scroll by their distance from the finger / scrollResistance, then
  // spring back to their anchors; pulled past the top, the gaps spread by overscroll /
  // boundaryResistance.
  const springList = listProfile.springList;
  // frequencyHz is per second: its period is 1000 / frequencyHz ms.
  const responseMs = 1000 / springList.frequencyHz;
  const spring = dampedSpring({ responseMs, dampingRatio: springList.damping });
  let offsets = new Map();
  let settleFrame = 0;
  let lastScrollY = scrollY;
  let touchY = innerHeight / 2;
  // Where a pull past the top began (px), while one is under way.
  let pullStartY = null;

  function lag(delta) {
    for (const row of list.children) {
      // The row's anchor, not where its lag has put it (else the lag feeds on itself); a row never lags
      // more than its own height.
      const box = row.getBoundingClientRect();
      const offset = offsets.get(row) || 0;
      const anchorY = box.top - offset + box.height / 2;
      const lagged = offset + SpringList.lag(delta, touchY, anchorY, springList.scrollResistance);
      offsets.set(row, clamp(lagged, -box.height, box.height));
    }
    settle();
  }

  function settle() {
    const startedAt = now();
    const start = new Map(offsets);
    cancelAnimationFrame(settleFrame);
    const step = () => {
      let moving = false;
      start.forEach((from, row) => {
        const offset = spring.state(now() - startedAt, from, 0).position;
        const visible = Math.abs(offset) > restOffsetPx;
        offsets.set(row, offset);
        row.style.transform = visible ? `translateY(${offset}px)` : '';
        moving = moving || visible;
      });
      if (moving) {
        settleFrame = requestAnimationFrame(step);
      } else {
        offsets = new Map();
      }
    };
    settleFrame = requestAnimationFrame(step);
  }

  // The open row closes when the list scrolls.
  function onScroll() {
    if (openRow) {
      slide(openRow, false);
    }
    if (!reduceMotion) {
      lag(scrollY - lastScrollY);
    }
    lastScrollY = scrollY;
  }

  function onTouchStart(event) {
    if (!reduceMotion && scrollY <= 0) {
      pullStartY = event.touches[0].clientY;
    }
  }

  function onTouchMove(event) {
    if (pullStartY === null) {
      return;
    }
    const overscroll = event.touches[0].clientY - pullStartY;
    if (overscroll <= 0) {
      return;
    }
    const rows = [...list.children];
    rows.forEach((row, index) => {
      const resistance = springList.boundaryResistance;
      const spread = SpringList.edgeSpread(index, rows.length, overscroll, true, resistance);
      offsets.set(row, spread);
      row.style.transform = `translateY(${spread}px)`;
    });
  }

  function onTouchEnd() {
    if (pullStartY !== null) {
      pullStartY = null;
      settle();
    }
  }

  list.addEventListener('pointerdown', onPointerDown);
  list.addEventListener('pointermove', onPointerMove);
  list.addEventListener('pointerup', onPointerEnd);
  list.addEventListener('pointercancel', onPointerEnd);
  list.addEventListener('click', onClickCapture, true);
  list.addEventListener('submit', onSubmit);
  list.addEventListener('focusin', onFocusIn);
  list.addEventListener('focusout', onFocusOut);
  list.addEventListener('touchstart', onTouchStart, { passive: true });
  list.addEventListener('touchmove', onTouchMove, { passive: true });
  list.addEventListener('touchend', onTouchEnd);
  addEventListener('keydown', onKeyDown);
  addEventListener('scroll', onScroll, { passive: true });
  addEventListener('pointermove', (event) => {
    touchY = event.clientY;
  }, { passive: true });
}

const page = document.querySelector('.history');
// A closed deck's picks cannot change: its rows have no actions to reveal.
if (page && page.dataset.closed !== 'true') {
  createHistoryPage(
    page,
    JSON.parse(document.querySelector('#reveal-profile').textContent),
    JSON.parse(document.querySelector('#list-profile').textContent),
  );
}
