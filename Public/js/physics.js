// Swipedeck gesture physics: the browser mirror of Sources/SwipePhysics. No DOM, no dependencies.
// Each value is computed with the same operations in the same order as the Swift model, so the
// decision path (+ − × ÷, sqrt, comparisons) is bit-identical; springs (exp/sin/cos) agree within
// 1e-9. Every physics constant comes from the profile JSON (SwipeProfile as Swift encodes it); the
// only literals are maths, unit conversions, search bounds and seed 000's entrance box, which the
// Swift model hard-codes too (Tests/js/no-numbers.test.mjs lists them).
// Units: CSS px, ms, px/ms, radians. A trace is {t, x, y: number[], w, h, vw, vh, gx, gy, ox?, oy?}.
// Written for size (with deck.js it has a 4,096-byte budget, scripts/js-size.sh): what esbuild cannot
// shorten is property names and strings, so the code reads each profile field once where it can.

const M = Math, INF = Infinity, N = 'none', L = 'left', R = 'right', sqrt = M.sqrt, exp = M.exp,
  abs = v => v < 0 ? -v : v, // Swift `v < 0 ? -v : v` (keeps -0, unlike Math.abs)
  cap = v => v < 1 ? v : 1, // seed 000's `min(v, 1)`: capped above only
  clamp = (v, lo, hi) => v < lo ? lo : v > hi ? hi : v, // NaN passes through, as in Swift's comparisons
  within = (v, lo, hi) => v >= lo && v <= hi,
  /** Koloda target point {x, y} of a decision, components in {-1, 0, 1} (none = 0, 0). */
  target = d => ({ x: d.includes(R) - d.includes(L), y: d.includes('down') - d.includes('up') }),
  /** [direction, score, vector]: the enabled direction whose vector vec(d) scores highest (first on ties). */
  best = (p, vec, score) => {
    let c = N, b = -INF, G, g, q;
    for (const d of p.directions) g = vec(d), q = score(g), q > b && (c = d, b = q, G = g);
    return [c, b, G];
  };

/** Decision wire names, in Swift declaration order. */
export const DECISIONS = 'none left right up down up_left up_right down_left down_right'.split(' ');

/** Unit vector {x, y} of a decision in screen coordinates; diagonals use sqrt(0.5) as Swift does. */
const unit = (d, g = target(d), k = g.x && g.y ? sqrt(0.5) : 1) => ({ x: g.x * k, y: g.y * k });

/** Release velocity {x, y}, px/ms: least-squares slope over the last `windowMs` (else the last two samples). */
function velocity({ t, x, y }, windowMs) {
  const n = t.length;
  let s = n - 1, st = 0, sx = 0, sy = 0, tt = 0, tx = 0, ty = 0, i, d, m;
  while (s > 0 && t[n - 1] - t[s - 1] <= windowMs) s--;
  if (n - s < 2) s = n - 2;
  m = n - s;
  for (i = s; i < n; i++) st += t[i], sx += x[i], sy += y[i];
  for (i = s; i < n; i++) d = t[i] - st / m, tt += d * d, tx += d * (x[i] - sx / m), ty += d * (y[i] - sy / m);
  return n > 1 && tt > 0 ? { x: tx / tt, y: ty / tt } : { x: 0, y: 0 };
}

/** DragState.of and judge's rule switch in one: [candidate, progress, decision]; the decision needs trace r and velocity v.
 * judge's own recomputations (distanceOrFling's projection, Koloda's fraction k) are the same operations on the same
 * numbers as DragState's, so their values are reused here. Left/right rules name the side of dx;
 * a rule without a drag model (springList) has no candidate.
 * Koloda's nearest target is the highest negated squared distance (negation is exact, so the order is Swift's). */
function rule(dx, dy, w, h, vw, vh, ox, p, r, v) {
  const e = p.reveal, Z = p.zoneInsetX, T = p.distanceThreshold, K = p.kolodaThreshold, X = p.classicXRatio, px = 2 * dx / w, py = 2 * dy / h,
    side = dx < 0 ? L : R;
  let c = N, pr = 0, d = N, b, q, G;
  switch (p.rule) {
    case 'distanceOrFling':
      [c, b, G] = best(p, unit, g => dx / w * g.x + dy / h * g.y);
      if (c != N) {
        pr = (q = b / T) > 0 ? q : 0;
        if (r && (b >= T || v.x * G.x + v.y * G.y >= p.flingVelocity && b >= p.minFlingDistance)) d = c;
      }
      break;
    case 'classic':
      q = cap(dx / vw), c = q < 0 ? L : R, pr = abs(q) / X; // the side of dx / vw, which can underflow to -0
      if (abs(cap(dy / vh)) > p.classicYRatio) d = q < -X ? L : q > X ? R : N;
      break;
    case 'zone':
      c = side, q = ox + dx, b = dx < 0 ? ox - Z : vw - Z - ox, pr = b > 0 ? (dx < 0 ? ox - q : q - ox) / b : 1;
      if (r && longPress(r, p.pressDelayMs, p.pressSlopPx)) d = q < Z ? L : q > vw - Z ? R : N;
      break;
    case 'koloda':
      [c, b, G] = best(p, target, g => -((px - g.x) * (px - g.x) + (py - g.y) * (py - g.y)));
      if (c != N) q = clamp((px * G.x + py * G.y) / (G.x * G.x + G.y * G.y), 0, 1), pr = q / K, d = q >= K ? c : N;
      break;
    case 'reveal':
      c = side, pr = abs(dx) / (w * e.actionFraction);
      if (r && abs(dx) >= e.minTravelPx) d = revealDirection(r.x, e.moveClampPx, e.moveSamples);
  }
  return [c, pr, d];
}

/** Drag state {candidate, progress} of pointer offset (dx, dy), card w×h, viewport vw×vh, pointerdown x ox (viewport px). */
export const dragState = (...a) => { const [candidate, progress] = rule(...a); return { candidate, progress }; };

/** The claim and trace-shape rules of validate with profile.limits `L`: the first broken rule's code, or null.
 * Anything Swift's JSON decoder refuses (a missing or mistyped field, an unknown claim) is malformed, as are
 * non-finite numbers (Swift reads "NaN" and "Infinity" strings, then refuses them): t, x, y must be arrays and
 * only finite numbers pass; a trace that is not an object makes the caller's try fail. */
function shape(r, L, claimed) {
  const { t, x, y } = r, n = t.length;
  let pt = 0, px = 0, py = 0;
  return !(claimed == null || DECISIONS.includes(claimed)) || ![t, x, y].every(Array.isArray) || x.length != n || y.length != n ||
      ![r.w, r.h, r.vw, r.vh, r.gx, r.gy, r.ox ?? 0, r.oy ?? 0, ...t, ...x, ...y].every(Number.isFinite) ? 'malformed'
    : !(within(r.w, L.minCardSize, L.maxCardSize) && within(r.h, L.minCardSize, L.maxCardSize) &&
      within(r.vw, L.minViewport, L.maxViewport) && within(r.vh, L.minViewport, L.maxViewport) && within(r.gx, 0, r.w) && within(r.gy, 0, r.h)) ? 'size_out_of_range'
    : n < L.minSamples || !n ? 'too_few_samples'
    : n > L.maxSamples ? 'too_long'
    : t.some((v, i) => i ? !(v > t[i - 1]) : v < 0) ? 'non_monotonic_time'
    : t[n - 1] - t[0] < L.minDurationMs ? 'too_short'
    : t[n - 1] > L.maxDurationMs ? 'too_long'
    : t.some((v, i, _, dx = x[i] - px, dy = y[i] - py, reach = L.maxSpeed * (v - pt) + L.pointerSlopPx) =>
      (pt = v, px = x[i], py = y[i], dx * dx + dy * dy > reach * reach)) ? 'impossible_speed' : null;
}

/** zone: the press outlasted `delayMs` without moving more than `slopPx` before it. Times increase in a checked
 * trace, so the samples before `delayMs` are the prefix the Swift loop walks. */
const longPress = ({ t, x, y }, delayMs, slopPx, n = t.length) =>
  n > 0 && !(t[n - 1] < delayMs) && !t.some((v, i) => v < delayMs && x[i] * x[i] + y[i] * y[i] > slopPx * slopPx);

/** Machine-like trace with profile.limits `L`: near-constant intervals and speed on a near-perfect line. */
function suspect({ t, x, y }, L) {
  const n = t.length, s = n - 1, m = (t[s] - t[0]) / s, tol = L.suspectLineTolerancePx, sp = [], lx = x[s] - x[0], ly = y[s] - y[0];
  let sum = 0, c;
  return n >= L.suspectMinSamples && s > 1 && m > 0 &&
    t.every((v, i, _, dt = v - t[i - 1], dx = x[i] - x[i - 1], dy = y[i] - y[i - 1]) =>
      !i || !(abs(dt - m) > L.suspectIntervalTolerance * m) && (sum += sp[i] = sqrt(dx * dx + dy * dy) / dt, 1)) &&
    (c = sum / s) > 0 && !sp.some(v => abs(v - c) > L.suspectSpeedTolerance * c) &&
    // The line test runs over the end points too: their cross product is exactly 0 (never over).
    !x.some((v, i) => (c = lx * (y[i] - y[0]) - ly * (v - x[0])) * c > tol * tol * (lx * lx + ly * ly));
}

/** Classification.of: {decision, velocity: {x, y}, progress, rejection: null | code, suspect} of a `swipedeck classify`
 * input line's trace and claim (null/undefined = no claim), exactly as the CLI prints it. */
export function classify(r, p, claimed) {
  let e, v = { x: 0, y: 0 }, pr = 0, d = N, s = false, n, c;
  try { e = shape(r, p.limits, claimed); } catch { e = 'malformed'; }
  if (!e) {
    n = r.t.length, v = velocity(r, p.velocityWindowMs), s = suspect(r, p.limits);
    [c, pr, d] = rule(r.x[n - 1], r.y[n - 1], r.w, r.h, r.vw, r.vh, r.ox ?? (r.vw - r.w) / 2 + r.gx, p, r, v);
    d = p.directions.includes(d) ? d : N;
  }
  return { decision: d, velocity: v, progress: pr, rejection: e || (claimed == null || claimed == d ? null : d == N ? 'not_a_throw' : 'decision_mismatch'), suspect: s };
}

/** Card rotation while dragging, radians (clockwise positive); gy is the grab point's y in the card. */
export const rotation = (dx, w, h, vw, gy, p) =>
  p.maxRotation * clamp(dx / (p.rotationByViewport ? vw : w), -1, 1) * (p.rotateAboutGrabPoint && gy > h / 2 ? -1 : 1);

/** Overlay (LIKE / NOPE) opacity for a drag progress, 0…1. */
export const overlayOpacity = (progress, p, o = (progress - p.overlayStart) / (p.overlayFull - p.overlayStart)) => o > 0 ? cap(o) : 0;

/** Throw-out end {x, y} (px from rest) and durationMs, for release offset (dx, dy), velocity v {x, y}, decision d, viewport width vw. */
export function throwOut(dx, dy, v, d, vw, p) {
  const f = p.exitDistanceFactor * vw, u = unit(d), max = p.throwMaxMs, s = sqrt(v.x * v.x + v.y * v.y),
    along = s > 0 && v.x * u.x + v.y * u.y > 0, ms = s > 0 ? f / s : max, c = ms > max ? max : ms, y = p.throwStyle;
  return y == 'alongRelease'
    ? { x: dx + (along ? v.x / s : u.x) * f, y: dy + (along ? v.y / s : u.y) * f, durationMs: c < p.throwMinMs ? p.throwMinMs : c }
    // Seed 000 pan takes y from the velocity in px/s: 1000 ms per s.
    : { x: u.x < 0 ? -f : f, y: y == 'horizontalVelocityY' ? v.y * 1000 : dy, durationMs: max };
}

/** Seed 000 entrance start {x, y, rotation} from three uniform numbers in [0, 1) (Motion.entrance's box, hard-coded in Swift). */
export const entrance = (r1, r2, r3) => ({ x: -300 + 600 * r1, y: -300 - 300 * r2, rotation: (-90 + 180 * r3) * M.PI / 180 });

/** Damped spring q = {responseMs, dampingRatio} from x0, v0: [position, velocity] at t ms, or (env) the envelope at t. */
function spring(q, t, x0, v0, env) {
  const w = 2 * M.PI / q.responseMs, z = q.dampingRatio, wd = w * sqrt(1 - z * z), b = (v0 + z * w * x0) / wd, k = v0 + w * x0,
    root = sqrt(z * z - 1), r1 = -w * (z - root), r2 = -w * (z + root), c1 = (v0 - r2 * x0) / (r1 - r2), c2 = x0 - c1,
    a = M.abs(x0), ak = M.abs(k), peak = ak > 0 ? M.max(t, 1 / w - a / ak) : t, e = exp(-z * w * t), c = M.cos(wd * t), s = M.sin(wd * t);
  return z < 1 ? (env ? e * sqrt(x0 * x0 + b * b) : [e * (x0 * c + b * s), e * ((b * wd - z * w * x0) * c - (x0 * wd + z * w * b) * s)])
    : z == 1 ? (env ? (a + ak * peak) * exp(-w * peak) : [(x0 + k * t) * exp(-w * t), (k - w * (x0 + k * t)) * exp(-w * t)])
    : env ? M.abs(c1) * exp(r1 * t) + M.abs(c2) * exp(r2 * t) : [c1 * exp(r1 * t) + c2 * exp(r2 * t), c1 * r1 * exp(r1 * t) + c2 * r2 * exp(r2 * t)];
}

/** Damped spring (mass 1, towards 0) with q = {responseMs, dampingRatio}: [position, velocity] at t ms from x0 moving at v0 per ms. */
export const springState = (q, t, x0, v0) => spring(q, t, x0, v0);

/** Time (ms) after which |position| stays below eps (bisection on the spring's envelope). */
export function settleTime(q, x0, v0, eps = 0.5) {
  const over = t => spring(q, t, x0, v0, 1) > eps;
  let lo = 0, hi = 1, i = 0, m;
  if (!over(0)) return 0;
  while (over(hi) && hi < 1e9) hi *= 2; // search bounds of DampedSpring.settleTime, not physics
  for (; i < 60; i++) over(m = (lo + hi) / 2) ? lo = m : hi = m;
  return hi;
}

/** Transform of the card at depth in a stack of count, w px wide; s = profile.stack (StackSlot.at). */
export function stackSlot(depth, count, w, s) {
  const hidden = depth >= s.visible, d = hidden ? s.visible - 1 : depth, inset = s.mode == 'inset', sc = 1 - s.scaleStep * d;
  return {
    depth, scaleX: inset ? (w - 2 * s.insetX * d) / w : sc, scaleY: inset ? 1 : sc, translateX: 0,
    translateY: inset ? s.insetY * d : -s.offsetStep * d, opacity: hidden ? 0 : inset ? 1 : 1 - s.alphaStep * d, zIndex: count - depth,
  };
}

/** Reveal row direction from the sum of the last `samples` moves of xs, each clamped to ±clampPx: right if > 0, else left; none under 2 points. */
export function revealDirection(xs, clampPx, samples) {
  const n = xs.length;
  let i = n - samples, s = 0, m;
  // The upper bound first, then the lower, as RevealRow.direction does (they differ if clampPx < 0).
  for (i = i < 1 ? 1 : i; i < n; i++) m = xs[i] - xs[i - 1], m = m > clampPx ? clampPx : m, s += m < -clampPx ? -clampPx : m;
  return n < 2 ? N : s > 0 ? R : L;
}

/** Reveal row linear slide, ms, from offset towards −travel (opening) or 0. */
export const slideDuration = (offset, travel, opening, maxSlideMs, ms = maxSlideMs * (opening ? travel + offset : -offset) / travel, c = ms > maxSlideMs ? maxSlideMs : ms) =>
  travel > 0 && c > 0 ? c : 0;

/** Spring list: how far an item lags a drag step, px. */
export const springLag = (scrollDelta, touchY, itemY, resistance) => scrollDelta * abs(touchY - itemY) / resistance;
/** Spring list: extra offset of item index of count when pulled overscroll px past the top (atTop) or the bottom. */
export const edgeSpread = (index, count, overscroll, atTop, resistance, g = overscroll / resistance) => atTop ? g * (index + 1) : -g * (count - index);
