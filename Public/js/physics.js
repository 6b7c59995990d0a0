// Swipedeck gesture physics: the browser mirror of Sources/SwipePhysics. No DOM, no dependencies.
// Each value is computed with the same operations in the same order as the Swift model, so the
// decision path (+ − × ÷, sqrt, comparisons) is bit-identical; springs (exp/sin/cos) agree within
// 1e-9. Every physics constant comes from the profile JSON (SwipeProfile as Swift encodes it); the
// only literals are maths, unit conversions, search bounds and seed 000's entrance box, which the
// Swift model hard-codes too (Tests/js/no-numbers.test.mjs lists them).
// Units: CSS px, ms, px/ms, radians. A trace is {t, x, y: number[], w, h, vw, vh, gx, gy, ox?, oy?}.

const NONE = 'none';
const LEFT = 'left';
const RIGHT = 'right';
const sqrt = Math.sqrt;
const exp = Math.exp;

/** Swift's `v < 0 ? -v : v` (keeps −0, unlike Math.abs). */
function abs(value) {
  return value < 0 ? -value : value;
}

/** Seed 000's `min(v, 1)`: capped above only. */
function cap(value) {
  return value < 1 ? value : 1;
}

/** `value` limited to lo…hi; NaN passes through, as in Swift's comparisons. */
function clamp(value, lo, hi) {
  return value < lo ? lo : value > hi ? hi : value;
}

function within(value, lo, hi) {
  return value >= lo && value <= hi;
}

/** Decision wire names, in Swift declaration order. */
export const DECISIONS = 'none left right up down up_left up_right down_left down_right'.split(' ');

/** Koloda target point {x, y} of a decision, components in {−1, 0, 1} (none = 0, 0). */
function target(decision) {
  const x = decision.includes(RIGHT) - decision.includes(LEFT);
  const y = decision.includes('down') - decision.includes('up');
  return { x, y };
}

/** Unit vector {x, y} of a decision in screen coordinates; diagonals use sqrt(0.5) as Swift does. */
function unit(decision) {
  const point = target(decision);
  const scale = point.x && point.y ? sqrt(0.5) : 1;
  return { x: point.x * scale, y: point.y * scale };
}

/** [direction, score, vector]: the enabled direction whose vector `vectorOf(d)` scores highest
 *  (the first one on ties). */
function bestDirection(profile, vectorOf, scoreOf) {
  let best = NONE;
  let bestScore = -Infinity;
  let bestVector;
  for (const direction of profile.directions) {
    const vector = vectorOf(direction);
    const score = scoreOf(vector);
    if (score > bestScore) {
      best = direction;
      bestScore = score;
      bestVector = vector;
    }
  }
  return [best, bestScore, bestVector];
}

/** Release velocity {x, y}, px/ms: least-squares slope over the last `windowMs` (else the last
 *  two samples). */
function releaseVelocity(trace, windowMs) {
  const { t, x, y } = trace;
  const n = t.length;
  let start = n - 1;
  while (start > 0 && t[n - 1] - t[start - 1] <= windowMs) {
    start--;
  }
  if (n - start < 2) {
    start = n - 2;
  }
  const count = n - start;
  let sumT = 0;
  let sumX = 0;
  let sumY = 0;
  for (let i = start; i < n; i++) {
    sumT += t[i];
    sumX += x[i];
    sumY += y[i];
  }
  let tt = 0;
  let tx = 0;
  let ty = 0;
  for (let i = start; i < n; i++) {
    const dt = t[i] - sumT / count;
    tt += dt * dt;
    tx += dt * (x[i] - sumX / count);
    ty += dt * (y[i] - sumY / count);
  }
  return n > 1 && tt > 0 ? { x: tx / tt, y: ty / tt } : { x: 0, y: 0 };
}

/** DragState.of and judge's rule switch in one: [candidate, progress, decision]; the decision
 *  needs the trace and its release velocity. judge's own recomputations (distanceOrFling's
 *  projection, Koloda's fraction) are the same operations on the same numbers as DragState's, so
 *  their values are reused here. Left/right rules name the side of dx; a rule without a drag
 *  model (springList) has no candidate. Koloda's nearest target is the highest negated squared
 *  distance (negation is exact, so the order is Swift's). */
function judge(dx, dy, w, h, vw, vh, ox, profile, trace, velocity) {
  const side = dx < 0 ? LEFT : RIGHT;
  let candidate = NONE;
  let progress = 0;
  let decision = NONE;
  switch (profile.rule) {
    case 'distanceOrFling': {
      const threshold = profile.distanceThreshold;
      const [best, distance, vector] = bestDirection(profile, unit, (u) => dx / w * u.x + dy / h * u.y);
      candidate = best;
      if (candidate != NONE) {
        const fraction = distance / threshold;
        progress = fraction > 0 ? fraction : 0;
        const speed = velocity ? velocity.x * vector.x + velocity.y * vector.y : 0;
        const flung = trace && speed >= profile.flingVelocity && distance >= profile.minFlingDistance;
        if (trace && (distance >= threshold || flung)) {
          decision = candidate;
        }
      }
      break;
    }
    case 'classic': {
      // The side of dx / vw, which can underflow to −0.
      const ratio = cap(dx / vw);
      const xRatio = profile.classicXRatio;
      candidate = ratio < 0 ? LEFT : RIGHT;
      progress = abs(ratio) / xRatio;
      // Vertical movement does not matter (a level drag counts).
      decision = ratio < -xRatio ? LEFT : ratio > xRatio ? RIGHT : NONE;
      break;
    }
    case 'zone': {
      const inset = profile.zoneInsetX;
      const pointerX = ox + dx;
      const room = dx < 0 ? ox - inset : vw - inset - ox;
      candidate = side;
      progress = room > 0 ? (dx < 0 ? ox - pointerX : pointerX - ox) / room : 1;
      if (trace && longPress(trace, profile.pressDelayMs, profile.pressSlopPx)) {
        decision = pointerX < inset ? LEFT : pointerX > vw - inset ? RIGHT : NONE;
      }
      break;
    }
    case 'koloda': {
      const px = 2 * dx / w;
      const py = 2 * dy / h;
      const nearness = (g) => -((px - g.x) * (px - g.x) + (py - g.y) * (py - g.y));
      const [best, , goal] = bestDirection(profile, target, nearness);
      candidate = best;
      if (candidate != NONE) {
        const fraction = clamp((px * goal.x + py * goal.y) / (goal.x * goal.x + goal.y * goal.y), 0, 1);
        progress = fraction / profile.kolodaThreshold;
        decision = fraction >= profile.kolodaThreshold ? candidate : NONE;
      }
      break;
    }
    case 'reveal': {
      const reveal = profile.reveal;
      candidate = side;
      progress = abs(dx) / (w * reveal.actionFraction);
      if (trace && abs(dx) >= reveal.minTravelPx) {
        decision = revealDirection(trace.x, reveal.moveClampPx, reveal.moveSamples);
      }
      break;
    }
  }
  return [candidate, progress, decision];
}

/** Drag state {candidate, progress} of pointer offset (dx, dy), card w×h, viewport vw×vh and
 *  pointerdown x ox (viewport px). */
export function dragState(dx, dy, w, h, vw, vh, ox, profile) {
  const [candidate, progress] = judge(dx, dy, w, h, vw, vh, ox, profile);
  return { candidate, progress };
}

/** Whether anything Swift's JSON decoder refuses is there: a missing or mistyped field, an
 *  unknown claim, or a non-finite number (Swift reads "NaN" and "Infinity" strings, then refuses
 *  them). t, x, y must be arrays of the same length. */
function isMalformed(trace, claimed) {
  const { t, x, y } = trace;
  const n = t.length;
  if (!(claimed == null || DECISIONS.includes(claimed))) {
    return true;
  }
  if (![t, x, y].every(Array.isArray) || x.length != n || y.length != n) {
    return true;
  }
  const scalars = [trace.w, trace.h, trace.vw, trace.vh, trace.gx, trace.gy, trace.ox ?? 0, trace.oy ?? 0];
  return ![...scalars, ...t, ...x, ...y].every(Number.isFinite);
}

function isSizeOutOfRange(trace, limits) {
  const cardFits = within(trace.w, limits.minCardSize, limits.maxCardSize)
    && within(trace.h, limits.minCardSize, limits.maxCardSize);
  const viewportFits = within(trace.vw, limits.minViewport, limits.maxViewport)
    && within(trace.vh, limits.minViewport, limits.maxViewport);
  const grabFits = within(trace.gx, 0, trace.w) && within(trace.gy, 0, trace.h);
  return !(cardFits && viewportFits && grabFits);
}

function isTimeNonMonotonic(t) {
  for (let i = 0; i < t.length; i++) {
    if (i ? !(t[i] > t[i - 1]) : t[i] < 0) {
      return true;
    }
  }
  return false;
}

/** Validation.swift's hasImpossibleSpeed, the same operations in the same order: whether a sample
 *  is further from its anchor than maxSpeed × max(the time between them, speedWindowMs) +
 *  pointerSlopPx. The anchor is the latest earlier sample at least speedWindowMs before it, else the
 *  pointerdown point (0, 0) at t = 0. Times are finite and increasing here. */
function hasImpossibleSpeed({ t, x, y }, limits) {
  const windowMs = limits.speedWindowMs;
  let anchor = -1;
  let anchorT = 0;
  let anchorX = 0;
  let anchorY = 0;
  for (let i = 0; i < t.length; i++) {
    while (anchor + 1 < i && t[anchor + 1] <= t[i] - windowMs) {
      anchor++;
      anchorT = t[anchor];
      anchorX = x[anchor];
      anchorY = y[anchor];
    }
    const span = t[i] - anchorT;
    const reach = limits.maxSpeed * (span > windowMs ? span : windowMs) + limits.pointerSlopPx;
    const dx = x[i] - anchorX;
    const dy = y[i] - anchorY;
    if (dx * dx + dy * dy > reach * reach) {
      return true;
    }
  }
  return false;
}

/** The claim and trace-shape rules of validate with profile.limits: the first broken rule's code,
 *  or null. A trace that is not an object makes the caller's try fail. */
function checkTrace(trace, limits, claimed) {
  const t = trace.t;
  const n = t.length;
  if (isMalformed(trace, claimed)) {
    return 'malformed';
  }
  if (isSizeOutOfRange(trace, limits)) {
    return 'size_out_of_range';
  }
  if (n < limits.minSamples || !n) {
    return 'too_few_samples';
  }
  if (n > limits.maxSamples) {
    return 'too_long';
  }
  if (isTimeNonMonotonic(t)) {
    return 'non_monotonic_time';
  }
  if (t[n - 1] - t[0] < limits.minDurationMs) {
    return 'too_short';
  }
  if (t[n - 1] > limits.maxDurationMs) {
    return 'too_long';
  }
  return hasImpossibleSpeed(trace, limits) ? 'impossible_speed' : null;
}

/** zone: the press outlasted `delayMs` without moving more than `slopPx` before it. Times increase
 *  in a checked trace, so the samples before `delayMs` are the prefix the Swift loop walks. */
function longPress({ t, x, y }, delayMs, slopPx) {
  const n = t.length;
  if (!(n > 0 && !(t[n - 1] < delayMs))) {
    return false;
  }
  return !t.some((time, i) => time < delayMs && x[i] * x[i] + y[i] * y[i] > slopPx * slopPx);
}

/** Machine-like trace with profile.limits: near-constant intervals and speed on a near-perfect line. */
function isSuspect({ t, x, y }, limits) {
  const n = t.length;
  const last = n - 1;
  const meanInterval = (t[last] - t[0]) / last;
  if (!(n >= limits.suspectMinSamples && last > 1 && meanInterval > 0)) {
    return false;
  }
  const speeds = [];
  let sum = 0;
  for (let i = 1; i < n; i++) {
    const dt = t[i] - t[i - 1];
    const dx = x[i] - x[i - 1];
    const dy = y[i] - y[i - 1];
    if (abs(dt - meanInterval) > limits.suspectIntervalTolerance * meanInterval) {
      return false;
    }
    speeds.push(sqrt(dx * dx + dy * dy) / dt);
    sum += speeds[speeds.length - 1];
  }
  const meanSpeed = sum / last;
  const speedTolerance = limits.suspectSpeedTolerance * meanSpeed;
  if (!(meanSpeed > 0) || speeds.some((speed) => abs(speed - meanSpeed) > speedTolerance)) {
    return false;
  }
  // The line test runs over the end points too: their cross product is exactly 0 (never over).
  const lx = x[last] - x[0];
  const ly = y[last] - y[0];
  const tolerance = limits.suspectLineTolerancePx;
  return !x.some((px, i) => {
    const cross = lx * (y[i] - y[0]) - ly * (px - x[0]);
    return cross * cross > tolerance * tolerance * (lx * lx + ly * ly);
  });
}

/** Classification.of: {decision, velocity: {x, y}, progress, rejection: null | code, suspect} of a
 *  `swipedeck classify` input line's trace and claim (null/undefined = no claim), exactly as the
 *  CLI prints it. */
export function classify(trace, profile, claimed) {
  let rejection;
  let velocity = { x: 0, y: 0 };
  let progress = 0;
  let decision = NONE;
  let suspect = false;
  try {
    rejection = checkTrace(trace, profile.limits, claimed);
  } catch {
    rejection = 'malformed';
  }
  if (!rejection) {
    const n = trace.t.length;
    const ox = trace.ox ?? (trace.vw - trace.w) / 2 + trace.gx;
    velocity = releaseVelocity(trace, profile.velocityWindowMs);
    suspect = isSuspect(trace, profile.limits);
    const dx = trace.x[n - 1];
    const dy = trace.y[n - 1];
    const judged = judge(dx, dy, trace.w, trace.h, trace.vw, trace.vh, ox, profile, trace, velocity);
    progress = judged[1];
    decision = judged[2];
    decision = profile.directions.includes(decision) ? decision : NONE;
  }
  if (!rejection && claimed != null && claimed != decision) {
    rejection = decision == NONE ? 'not_a_throw' : 'decision_mismatch';
  }
  return { decision, velocity, progress, rejection: rejection || null, suspect };
}

/** Card rotation while dragging, radians (clockwise positive); gy is the grab point's y in the card. */
export function rotation(dx, w, h, vw, gy, profile) {
  const fraction = clamp(dx / (profile.rotationByViewport ? vw : w), -1, 1);
  const flip = profile.rotateAboutGrabPoint && gy > h / 2 ? -1 : 1;
  return profile.maxRotation * fraction * flip;
}

/** Overlay (LIKE / NOPE) opacity for a drag progress, 0…1. */
export function overlayOpacity(progress, profile) {
  const opacity = (progress - profile.overlayStart) / (profile.overlayFull - profile.overlayStart);
  return opacity > 0 ? cap(opacity) : 0;
}

/** Throw-out end {x, y} (px from rest) and durationMs, for release offset (dx, dy), velocity v
 *  {x, y}, decision d and viewport width vw. */
export function throwOut(dx, dy, v, d, vw, profile) {
  const distance = profile.exitDistanceFactor * vw;
  const direction = unit(d);
  const maxMs = profile.throwMaxMs;
  const speed = sqrt(v.x * v.x + v.y * v.y);
  if (profile.throwStyle != 'alongRelease') {
    // Seed 000 pan takes y from the velocity in px/s: 1000 ms per s.
    const y = profile.throwStyle == 'horizontalVelocityY' ? v.y * 1000 : dy;
    return { x: direction.x < 0 ? -distance : distance, y, durationMs: maxMs };
  }
  const along = speed > 0 && v.x * direction.x + v.y * direction.y > 0;
  const ms = speed > 0 ? distance / speed : maxMs;
  const capped = ms > maxMs ? maxMs : ms;
  return {
    x: dx + (along ? v.x / speed : direction.x) * distance,
    y: dy + (along ? v.y / speed : direction.y) * distance,
    durationMs: capped < profile.throwMinMs ? profile.throwMinMs : capped,
  };
}

/** Seed 000 entrance start {x, y, rotation} from three uniform numbers in [0, 1) (Motion.entrance's
 *  box, hard-coded in Swift). */
export function entrance(r1, r2, r3) {
  return { x: -300 + 600 * r1, y: -300 - 300 * r2, rotation: (-90 + 180 * r3) * Math.PI / 180 };
}

/** Damped spring (mass 1, towards 0) with q = {responseMs, dampingRatio}: [position, velocity] at
 *  t ms from x0 moving at v0 per ms, or (envelope) the bound on |position| at t. */
function spring(q, t, x0, v0, envelope) {
  const w = 2 * Math.PI / q.responseMs;
  const z = q.dampingRatio;
  if (z < 1) {
    return underdamped(w, z, t, x0, v0, envelope);
  }
  if (z == 1) {
    return criticallyDamped(w, t, x0, v0, envelope);
  }
  return overdamped(w, z, t, x0, v0, envelope);
}

function underdamped(w, z, t, x0, v0, envelope) {
  const wd = w * sqrt(1 - z * z);
  const b = (v0 + z * w * x0) / wd;
  const decay = exp(-z * w * t);
  if (envelope) {
    return decay * sqrt(x0 * x0 + b * b);
  }
  const cos = Math.cos(wd * t);
  const sin = Math.sin(wd * t);
  return [decay * (x0 * cos + b * sin), decay * ((b * wd - z * w * x0) * cos - (x0 * wd + z * w * b) * sin)];
}

function criticallyDamped(w, t, x0, v0, envelope) {
  const k = v0 + w * x0;
  if (envelope) {
    const a = Math.abs(x0);
    const ak = Math.abs(k);
    const peak = ak > 0 ? Math.max(t, 1 / w - a / ak) : t;
    return (a + ak * peak) * exp(-w * peak);
  }
  return [(x0 + k * t) * exp(-w * t), (k - w * (x0 + k * t)) * exp(-w * t)];
}

function overdamped(w, z, t, x0, v0, envelope) {
  const root = sqrt(z * z - 1);
  const r1 = -w * (z - root);
  const r2 = -w * (z + root);
  const c1 = (v0 - r2 * x0) / (r1 - r2);
  const c2 = x0 - c1;
  if (envelope) {
    return Math.abs(c1) * exp(r1 * t) + Math.abs(c2) * exp(r2 * t);
  }
  return [c1 * exp(r1 * t) + c2 * exp(r2 * t), c1 * r1 * exp(r1 * t) + c2 * r2 * exp(r2 * t)];
}

/** Damped spring (mass 1, towards 0) with q = {responseMs, dampingRatio}: [position, velocity] at
 *  t ms from x0 moving at v0 per ms. */
export function springState(q, t, x0, v0) {
  return spring(q, t, x0, v0);
}

/** Time (ms) after which |position| stays below eps (bisection on the spring's envelope). */
export function settleTime(q, x0, v0, eps = 0.5) {
  const over = (t) => spring(q, t, x0, v0, true) > eps;
  if (!over(0)) {
    return 0;
  }
  let lo = 0;
  let hi = 1;
  // Search bounds of DampedSpring.settleTime, not physics.
  while (over(hi) && hi < 1e9) {
    hi *= 2;
  }
  for (let i = 0; i < 60; i++) {
    const middle = (lo + hi) / 2;
    if (over(middle)) {
      lo = middle;
    } else {
      hi = middle;
    }
  }
  return hi;
}

/** Transform of the card at depth in a stack of count, w px wide; stack = profile.stack (StackSlot.at). */
export function stackSlot(depth, count, w, stack) {
  const hidden = depth >= stack.visible;
  const d = hidden ? stack.visible - 1 : depth;
  const inset = stack.mode == 'inset';
  const scale = 1 - stack.scaleStep * d;
  return {
    depth,
    scaleX: inset ? (w - 2 * stack.insetX * d) / w : scale,
    scaleY: inset ? 1 : scale,
    translateX: 0,
    translateY: inset ? stack.insetY * d : -stack.offsetStep * d,
    opacity: hidden ? 0 : inset ? 1 : 1 - stack.alphaStep * d,
    zIndex: count - depth,
  };
}

/** Reveal row direction from the sum of the last `samples` moves of xs, each clamped to ±clampPx:
 *  right if > 0, else left; none under 2 points. */
export function revealDirection(xs, clampPx, samples) {
  const n = xs.length;
  const first = n - samples < 1 ? 1 : n - samples;
  let sum = 0;
  for (let i = first; i < n; i++) {
    // The upper bound first, then the lower, as RevealRow.direction does (they differ if clampPx < 0).
    const move = xs[i] - xs[i - 1];
    const below = move > clampPx ? clampPx : move;
    sum += below < -clampPx ? -clampPx : below;
  }
  return n < 2 ? NONE : sum > 0 ? RIGHT : LEFT;
}

/** Reveal row linear slide, ms, from offset towards −travel (opening) or 0. */
export function slideDuration(offset, travel, opening, maxSlideMs) {
  const ms = maxSlideMs * (opening ? travel + offset : -offset) / travel;
  const capped = ms > maxSlideMs ? maxSlideMs : ms;
  return travel > 0 && capped > 0 ? capped : 0;
}

/** Spring list: how far an item lags a drag step, px. */
export function springLag(scrollDelta, touchY, itemY, resistance) {
  return scrollDelta * abs(touchY - itemY) / resistance;
}

/** Spring list: extra offset of item index of count when pulled overscroll px past the top (atTop)
 *  or the bottom. */
export function edgeSpread(index, count, overscroll, atTop, resistance) {
  const spread = overscroll / resistance;
  return atTop ? spread * (index + 1) : -spread * (count - index);
}
