// Swipedeck gesture physics: the browser mirror of Sources/SwipePhysics. No DOM, no dependencies.
// Each value is computed with the same operations in the same order as the Swift model, so the
// decision path (+ − × ÷, sqrt, comparisons) is bit-identical; springs (exp/sin/cos) agree within
// 1e-9. Every physics constant comes from the profile JSON (SwipeProfile as Swift encodes it); the
// only literals are maths, unit conversions, search bounds and seed 000's entrance box, which the
// Swift model hard-codes too (Tests/js/no-numbers.test.mjs lists them).
// Units: CSS px, ms, px/ms, radians. A trace is {t, x, y: number[], w, h, vw, vh, gx, gy, ox?, oy?}.

const M = Math, INF = Infinity, NONE = 'none', L = 'left', R = 'right';
/** Decision wire names, in Swift declaration order. */
export const DECISIONS = [NONE, L, R, 'up', 'down', 'up_left', 'up_right', 'down_left', 'down_right'];
/** Koloda target point {x, y} of a decision, components in {-1, 0, 1} (none = 0, 0). */
export const target = d => ({ x: d.includes(R) - d.includes(L), y: d.includes('down') - d.includes('up') });
/** Unit vector {x, y} of a decision in screen coordinates; diagonals use sqrt(0.5) as Swift does. */
export const unit = d => { const g = target(d), k = g.x && g.y ? M.sqrt(0.5) : 1; return { x: g.x * k, y: g.y * k }; };
/** Seed 000's `min(v, 1)`: capped above only. */
const cap = v => v < 1 ? v : 1;
const abs = v => v < 0 ? -v : v; // Swift `v < 0 ? -v : v` (keeps -0, unlike Math.abs)

/** Release velocity {x, y}, px/ms: least-squares slope over the last `windowMs` (else the last two samples). */
export function releaseVelocity({ t, x, y }, windowMs) {
  const n = t.length;
  let s = n - 1, st = 0, sx = 0, sy = 0, tt = 0, tx = 0, ty = 0, i, d, m;
  if (n < 2) return { x: 0, y: 0 };
  while (s > 0 && t[n - 1] - t[s - 1] <= windowMs) s--;
  if (n - s < 2) s = n - 2;
  m = n - s;
  for (i = s; i < n; i++) st += t[i], sx += x[i], sy += y[i];
  for (i = s; i < n; i++) d = t[i] - st / m, tt += d * d, tx += d * (x[i] - sx / m), ty += d * (y[i] - sy / m);
  return tt > 0 ? { x: tx / tt, y: ty / tt } : { x: 0, y: 0 };
}

/** DragState.of and judge's rule switch in one: [candidate, progress, decision]; the decision needs trace r and velocity v.
 * judge's own recomputations (distanceOrFling's projection, Koloda's fraction k) are the same operations on the same
 * numbers as DragState's, so their values are reused here. */
function rule(dx, dy, w, h, vw, vh, ox, p, r, v) {
  let c = NONE, pr = 0, d = NONE, b, q, g, px = 2 * dx / w, py = 2 * dy / h;
  switch (p.rule) {
    case 'distanceOrFling':
      b = -INF;
      for (const e of p.directions) g = unit(e), q = dx / w * g.x + dy / h * g.y, q > b && (c = e, b = q);
      if (c != NONE) {
        g = unit(c), pr = (q = b / p.distanceThreshold) > 0 ? q : 0;
        if (r && (b >= p.distanceThreshold || (v.x * g.x + v.y * g.y >= p.flingVelocity && b >= p.minFlingDistance))) d = c;
      }
      break;
    case 'classic':
      q = cap(dx / vw), b = abs(cap(dy / vh)), c = q < 0 ? L : R, pr = abs(q) / p.classicXRatio;
      d = q < -p.classicXRatio && b > p.classicYRatio ? L : q > p.classicXRatio && b > p.classicYRatio ? R : d;
      break;
    case 'zone':
      q = ox + dx, c = dx < 0 ? L : R, b = dx < 0 ? ox - p.zoneInsetX : vw - p.zoneInsetX - ox;
      pr = b > 0 ? (dx < 0 ? ox - q : q - ox) / b : 1;
      if (r && longPressBegan(r, p.pressDelayMs, p.pressSlopPx)) d = q < p.zoneInsetX ? L : q > vw - p.zoneInsetX ? R : d;
      break;
    case 'koloda':
      b = INF;
      for (const e of p.directions) g = target(e), dx = px - g.x, dy = py - g.y, q = dx * dx + dy * dy, q < b && (c = e, b = q);
      if (c != NONE) {
        g = target(c), q = (px * g.x + py * g.y) / (g.x * g.x + g.y * g.y), q = q < 0 ? 0 : q, q = q > 1 ? 1 : q;
        pr = q / p.kolodaThreshold, d = q >= p.kolodaThreshold ? c : d;
      }
      break;
    case 'reveal':
      c = dx < 0 ? L : R, pr = abs(dx) / (w * p.reveal.actionFraction);
      if (r && abs(dx) >= p.reveal.minTravelPx) d = revealDirection(r.x, p.reveal.moveClampPx, p.reveal.moveSamples);
  }
  return [c, pr, d];
}

/** Drag state {candidate, progress} of pointer offset (dx, dy), card w×h, viewport vw×vh, pointerdown x ox (viewport px). */
export function dragState(dx, dy, w, h, vw, vh, ox, p) {
  const [candidate, progress] = rule(dx, dy, w, h, vw, vh, ox, p);
  return { candidate, progress };
}

/** The trace-shape rules of validate with profile.limits `L`: the first broken rule's code, or null. */
export function checkTrace(r, L) {
  const { t, x, y } = r, n = t.length, within = (v, a, b) => v >= a && v <= b;
  let pt = 0, px = 0, py = 0;
  return x.length != n || y.length != n || ![r.w, r.h, r.vw, r.vh, r.gx, r.gy, r.ox ?? 0, r.oy ?? 0, ...t, ...x, ...y].every(isFinite) ? 'malformed'
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

/** zone: the press outlasted `delayMs` without moving more than `slopPx` before it. */
export function longPressBegan({ t, x, y }, delayMs, slopPx) {
  const n = t.length;
  for (let i = 0; i < n && t[i] < delayMs; i++) if (x[i] * x[i] + y[i] * y[i] > slopPx * slopPx) return false;
  return n > 0 && !(t[n - 1] < delayMs);
}

/** Machine-like trace with profile.limits `L`: near-constant intervals and speed on a near-perfect line. */
export function isSuspect({ t, x, y }, L) {
  const n = t.length, s = n - 1, m = (t[s] - t[0]) / s, tol = L.suspectLineTolerancePx, sp = [], lx = x[s] - x[0], ly = y[s] - y[0];
  let sum = 0, i = 1, dt, dx, dy, c;
  if (n < L.suspectMinSamples || s < 2 || !(m > 0)) return false;
  for (; i < n; i++) {
    dt = t[i] - t[i - 1], dx = x[i] - x[i - 1], dy = y[i] - y[i - 1];
    if (M.abs(dt - m) > L.suspectIntervalTolerance * m) return false;
    sum += sp[i] = M.sqrt(dx * dx + dy * dy) / dt;
  }
  // The line test runs over the end points too: their cross product is exactly 0 (never over).
  return (c = sum / s) > 0 && !sp.some(v => M.abs(v - c) > L.suspectSpeedTolerance * c) &&
    !x.some((v, i) => (c = lx * (y[i] - y[0]) - ly * (v - x[0])) * c > tol * tol * (lx * lx + ly * ly));
}

/** The model's verdict on a trace that passed checkTrace: {decision, candidate, velocity, progress, suspect}. */
export function judge(r, p) {
  const { t, x, y, w, vw } = r, n = t.length, velocity = releaseVelocity(r, p.velocityWindowMs),
    [candidate, progress, d] = rule(n > 0 ? x[n - 1] : 0, n > 0 ? y[n - 1] : 0, w, r.h, vw, r.vh, r.ox ?? (vw - w) / 2 + r.gx, p, r, velocity);
  return { decision: p.directions.includes(d) ? d : NONE, candidate, velocity, progress, suspect: isSuspect(r, p.limits) };
}

/** A JSON number or Swift LenientDouble's "NaN", "Infinity", "+Infinity", "-Infinity"; else undefined. */
const num = v => typeof v == 'number' ? v : v === 'NaN' ? NaN : v === 'Infinity' || v === '+Infinity' ? INF : v === '-Infinity' ? -INF : undefined;

/** Classification.of: {decision, velocity: {x, y}, progress, rejection: null | code, suspect}. `claimed` null/undefined = no claim.
 * Inputs Swift's JSON decoder refuses (missing or mistyped fields, an unknown claim) give the malformed classification. */
export function classify(trace, p, claimed) {
  const r = {}, ok = trace && typeof trace == 'object' && !Array.isArray(trace) && (claimed == null || DECISIONS.includes(claimed)) &&
    ['t', 'x', 'y'].every(k => Array.isArray(trace[k]) && !(r[k] = trace[k].map(num)).includes(undefined)) &&
    ['w', 'h', 'vw', 'vh', 'gx', 'gy', 'ox', 'oy'].every(k => (r[k] = num(trace[k])) !== undefined || (k[0] == 'o' && trace[k] == null));
  const e = ok ? checkTrace(r, p.limits) : 'malformed', v = e ? { decision: NONE, velocity: { x: 0, y: 0 }, progress: 0, suspect: false } : judge(r, p), d = v.decision;
  return { decision: d, velocity: v.velocity, progress: v.progress, rejection: e || (claimed == null || claimed == d ? null : d == NONE ? 'not_a_throw' : 'decision_mismatch'), suspect: v.suspect };
}

/** Card rotation while dragging, radians (clockwise positive); gy is the grab point's y in the card. */
export function rotation(dx, w, h, vw, gy, p) {
  const r = dx / (p.rotationByViewport ? vw : w);
  return p.maxRotation * (r > 1 ? 1 : r < -1 ? -1 : r) * (p.rotateAboutGrabPoint && gy > h / 2 ? -1 : 1);
}

/** Overlay (LIKE / NOPE) opacity for a drag progress, 0…1. */
export function overlayOpacity(progress, p) {
  const o = (progress - p.overlayStart) / (p.overlayFull - p.overlayStart);
  return !(o > 0) ? 0 : o < 1 ? o : 1;
}

/** Throw-out end {x, y} (px from rest) and durationMs, for release offset (dx, dy), velocity v {x, y}, decision d, viewport width vw. */
export function throwOut(dx, dy, v, d, vw, p) {
  const f = p.exitDistanceFactor * vw, u = unit(d), max = p.throwMaxMs, s = M.sqrt(v.x * v.x + v.y * v.y),
    along = s > 0 && v.x * u.x + v.y * u.y > 0, ms = s > 0 ? f / s : max, c = ms > max ? max : ms;
  return p.throwStyle == 'alongRelease'
    ? { x: dx + (along ? v.x / s : u.x) * f, y: dy + (along ? v.y / s : u.y) * f, durationMs: c < p.throwMinMs ? p.throwMinMs : c }
    // Seed 000 pan takes y from the velocity in px/s: 1000 ms per s.
    : { x: u.x < 0 ? -f : f, y: p.throwStyle == 'horizontalVelocityY' ? v.y * 1000 : dy, durationMs: max };
}

/** Seed 000 entrance start {x, y, rotation} from three uniform numbers in [0, 1) (Motion.entrance's box, hard-coded in Swift). */
export const entrance = (r1, r2, r3) => ({ x: -300 + 600 * r1, y: -300 - 300 * r2, rotation: (-90 + 180 * r3) * M.PI / 180 });

/** Damped spring q = {responseMs, dampingRatio} from x0, v0: [position, velocity] at t ms, or (env) the envelope at t. */
function spring(q, t, x0, v0, env) {
  const w = 2 * M.PI / q.responseMs, z = q.dampingRatio, wd = w * M.sqrt(1 - z * z), b = (v0 + z * w * x0) / wd, k = v0 + w * x0,
    root = M.sqrt(z * z - 1), r1 = -w * (z - root), r2 = -w * (z + root), c1 = (v0 - r2 * x0) / (r1 - r2), c2 = x0 - c1,
    a = M.abs(x0), ak = M.abs(k), peak = ak > 0 ? M.max(t, 1 / w - a / ak) : t, e = M.exp(-z * w * t), c = M.cos(wd * t), s = M.sin(wd * t);
  return z < 1 ? (env ? e * M.sqrt(x0 * x0 + b * b) : [e * (x0 * c + b * s), e * ((b * wd - z * w * x0) * c - (x0 * wd + z * w * b) * s)])
    : z == 1 ? (env ? (a + ak * peak) * M.exp(-w * peak) : [(x0 + k * t) * M.exp(-w * t), (k - w * (x0 + k * t)) * M.exp(-w * t)])
    : env ? M.abs(c1) * M.exp(r1 * t) + M.abs(c2) * M.exp(r2 * t) : [c1 * M.exp(r1 * t) + c2 * M.exp(r2 * t), c1 * r1 * M.exp(r1 * t) + c2 * r2 * M.exp(r2 * t)];
}

/** Damped spring (mass 1, towards 0) with q = {responseMs, dampingRatio}: [position, velocity] at t ms from x0 moving at v0 per ms. */
export const springState = (q, t, x0, v0) => spring(q, t, x0, v0);

/** Time (ms) after which |position| stays below eps (bisection on the spring's envelope). */
export function settleTime(q, x0, v0, eps = 0.5) {
  const over = t => spring(q, t, x0, v0, 1) > eps;
  let lo = 0, hi = 1, i = 0, m;
  if (spring(q, 0, x0, v0, 1) <= eps) return 0;
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
  for (i = i < 1 ? 1 : i; i < n; i++) m = xs[i] - xs[i - 1], m = m > clampPx ? clampPx : m, s += m < -clampPx ? -clampPx : m;
  return n < 2 ? NONE : s > 0 ? R : L;
}

/** Reveal row linear slide, ms, from offset towards −travel (opening) or 0. */
export function slideDuration(offset, travel, opening, maxSlideMs) {
  const ms = maxSlideMs * (opening ? travel + offset : -offset) / travel, c = ms > maxSlideMs ? maxSlideMs : ms;
  return travel > 0 && c > 0 ? c : 0;
}

/** Spring list: how far an item lags a drag step, px. */
export const springLag = (scrollDelta, touchY, itemY, resistance) => scrollDelta * abs(touchY - itemY) / resistance;
/** Spring list: extra offset of item index of count when pulled overscroll px past the top (atTop) or the bottom. */
export const edgeSpread = (index, count, overscroll, atTop, resistance, g = overscroll / resistance) => atTop ? g * (index + 1) : -g * (count - index);
