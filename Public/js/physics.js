// Swipedeck gesture physics: the browser's transliteration of Sources/SwipePhysics. No DOM, no dependencies.
// One JS function per Swift function, with the Swift name (a Swift type's static function is a property of
// an object of the same name), the same parameters in the same order, the same operations in the same order,
// and the same order as below, so the two can be read side by side. The decision path (+ − × ÷, sqrt,
// comparisons) is bit-identical; springs (exp/sin/cos) agree within 1e-9 (Tests/SwipePhysicsTests/Parity*).
// Every physics constant comes from the profile JSON (SwipeProfile as Swift encodes it); the only literals
// are maths, unit conversions, search bounds and seed 000's entrance box, which the Swift model hard-codes
// too (Tests/js/no-numbers.test.mjs lists them).
//
// Conventions: Swift's `throws(SwipeRejection)` on a function without a result is a returned rejection wire
// name, or null when no rule is broken; a Swift struct is a plain object with the same fields; Decision is
// its wire name (a string). Units: CSS px, ms, px/ms, radians.
//
// JavaScript                     Swift (Sources/SwipePhysics/)
// -- decision path, in the order the server runs it --
// DECISIONS, unit, target        Decision.swift: Decision.allCases, Decision.unit, Decision.target
// decodeTrace                    Trace+Codable.swift: Trace.init(from:) (and LenientDouble.swift)
// checkTrace                     Validation.swift: checkTrace(_:limits:)
// samplePass                     Validation.swift: SamplePass.init
// hasImpossibleSpeed             Validation.swift: hasImpossibleSpeed(_:limits:)
// Velocity.release               Velocity.swift: Velocity.release(of:windowMs:)
// DragState.of                   DragState.swift: DragState.of(dx:dy:w:h:vw:vh:ox:profile:)
// capAtOne                       DragState.swift: DragState.capAtOne
// judge                          Judge.swift: judge(_:profile:)
// longPressBegan                 Judge.swift: longPressBegan(_:delayMs:slopPx:)
// isSuspect                      Suspect.swift: isSuspect(_:limits:)
// Classification.of              Classification.swift: Classification.of(_:claimed:profile:)
// Classification.ofLine          Classification.swift: Classification.of(line:profile:), on the parsed line
// -- motion --
// Motion.rotation, .overlayOpacity, .throwOut, .entrance    Motion.swift
// dampedSpring (.state, .settleTime, .envelope)            DampedSpring.swift: DampedSpring.init and methods
// StackSlot.at                   StackSlot.swift
// RevealRow.direction, .slideDuration                      RevealRow.swift
// SpringList.lag, .edgeSpread    SpringList.swift
// Not mirrored: `validate` (the server's entry point: checkTrace, judge and the claim, as Classification.of).

// ---------------------------------------------------------------- Decision.swift

const NONE = 'none';

/** Decision wire names, in Swift declaration order (Decision.allCases). */
export const DECISIONS = Object.freeze([
  'none', 'left', 'right', 'up', 'down', 'up_left', 'up_right', 'down_left', 'down_right',
]);

/** Decision.unit: the unit vector {x, y} of a decision in screen coordinates (y grows downwards); diagonals
 *  use sqrt(0.5), correctly rounded in both languages. `none` is the zero vector. */
export function unit(decision) {
  const d = Math.sqrt(0.5);
  switch (decision) {
    case 'left':
      return { x: -1, y: 0 };
    case 'right':
      return { x: 1, y: 0 };
    case 'up':
      return { x: 0, y: -1 };
    case 'down':
      return { x: 0, y: 1 };
    case 'up_left':
      return { x: -d, y: -d };
    case 'up_right':
      return { x: d, y: -d };
    case 'down_left':
      return { x: -d, y: d };
    case 'down_right':
      return { x: d, y: d };
    default:
      return { x: 0, y: 0 };
  }
}

/** Decision.target: Koloda's target point {x, y}, components in {−1, 0, 1} (`none` is the origin). */
export function target(decision) {
  switch (decision) {
    case 'left':
      return { x: -1, y: 0 };
    case 'right':
      return { x: 1, y: 0 };
    case 'up':
      return { x: 0, y: -1 };
    case 'down':
      return { x: 0, y: 1 };
    case 'up_left':
      return { x: -1, y: -1 };
    case 'up_right':
      return { x: 1, y: -1 };
    case 'down_left':
      return { x: -1, y: 1 };
    case 'down_right':
      return { x: 1, y: 1 };
    default:
      return { x: 0, y: 0 };
  }
}

// ---------------------------------------------------------------- Trace+Codable.swift, LenientDouble.swift

/** LenientDouble: a JSON number, or the strings "NaN", "Infinity", "+Infinity", "-Infinity" as the IEEE
 *  values; undefined for anything else (Swift's decoder throws). */
function lenientDouble(value) {
  if (typeof value === 'number') {
    return value;
  }
  switch (value) {
    case 'NaN':
      return NaN;
    case 'Infinity':
    case '+Infinity':
      return Infinity;
    case '-Infinity':
      return -Infinity;
    default:
      return undefined;
  }
}

/** Whether a JSON field is absent or null (Swift's decodeIfPresent reads both as nil). */
function isAbsent(value) {
  return value === undefined || value === null;
}

/** An array of lenient numbers, or undefined when it is not one. */
function lenientNumbers(value) {
  if (!Array.isArray(value)) {
    return undefined;
  }
  const numbers = value.map(lenientDouble);
  return numbers.includes(undefined) ? undefined : numbers;
}

/** Trace.init(from:): the trace {t, x, y, w, h, vw, vh, gx, gy, ox, oy} a parsed JSON value decodes to, or
 *  null where Swift's decoder throws (not an object, a missing or mistyped field). `ox`, `oy` may be
 *  absent or null (undefined in the result). */
export function decodeTrace(value) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return null;
  }
  const trace = {
    t: lenientNumbers(value.t),
    x: lenientNumbers(value.x),
    y: lenientNumbers(value.y),
    w: lenientDouble(value.w),
    h: lenientDouble(value.h),
    vw: lenientDouble(value.vw),
    vh: lenientDouble(value.vh),
    gx: lenientDouble(value.gx),
    gy: lenientDouble(value.gy),
    ox: isAbsent(value.ox) ? undefined : lenientDouble(value.ox),
    oy: isAbsent(value.oy) ? undefined : lenientDouble(value.oy),
  };
  const required = [trace.t, trace.x, trace.y, trace.w, trace.h, trace.vw, trace.vh, trace.gx, trace.gy];
  const oxBroken = !isAbsent(value.ox) && trace.ox === undefined;
  const oyBroken = !isAbsent(value.oy) && trace.oy === undefined;
  return required.includes(undefined) || oxBroken || oyBroken ? null : trace;
}

// ---------------------------------------------------------------- Validation.swift

/** checkTrace: the trace-shape rules of `validate`, without any decision. Returns the first broken rule's
 *  wire name (Swift throws it), in SwipeRejection declaration order, or null. */
export function checkTrace(trace, limits) {
  const n = trace.t.length;
  if (trace.x.length !== n || trace.y.length !== n) {
    return 'malformed';
  }
  // The eight scalars (`ox`, `oy` count as 0 when absent).
  const scalars = [trace.w, trace.h, trace.vw, trace.vh, trace.gx, trace.gy, trace.ox ?? 0, trace.oy ?? 0];
  if (!scalars.every(Number.isFinite)) {
    return 'malformed';
  }
  const pass = samplePass(trace);
  if (!pass.finite) {
    return 'malformed';
  }

  const cardFits = trace.w >= limits.minCardSize && trace.w <= limits.maxCardSize
    && trace.h >= limits.minCardSize && trace.h <= limits.maxCardSize;
  if (!cardFits) {
    return 'size_out_of_range';
  }
  const viewportFits = trace.vw >= limits.minViewport && trace.vw <= limits.maxViewport
    && trace.vh >= limits.minViewport && trace.vh <= limits.maxViewport;
  if (!viewportFits) {
    return 'size_out_of_range';
  }
  if (!(trace.gx >= 0 && trace.gx <= trace.w && trace.gy >= 0 && trace.gy <= trace.h)) {
    return 'size_out_of_range';
  }

  if (n < limits.minSamples || n === 0) {
    return 'too_few_samples';
  }
  if (n > limits.maxSamples) {
    return 'too_long';
  }
  if (trace.t[0] < 0) {
    return 'non_monotonic_time';
  }
  if (!pass.increasing) {
    return 'non_monotonic_time';
  }
  if (trace.t[n - 1] - trace.t[0] < limits.minDurationMs) {
    return 'too_short';
  }
  if (trace.t[n - 1] > limits.maxDurationMs) {
    return 'too_long';
  }
  if (hasImpossibleSpeed(trace, limits)) {
    return 'impossible_speed';
  }
  return null;
}

/** SamplePass: {finite, increasing} of one pass over `t`, `x`, `y` (the same length): every sample is
 *  finite; `t[i] > t[i − 1]` for every i ≥ 1. Swift's pass is branch-free for speed; the facts are the
 *  same. */
function samplePass(trace) {
  const { t, x, y } = trace;
  let finite = true;
  let increasing = true;
  for (let i = 0; i < t.length; i++) {
    finite = finite && Number.isFinite(t[i]) && Number.isFinite(x[i]) && Number.isFinite(y[i]);
    increasing = increasing && (i === 0 || t[i] > t[i - 1]);
  }
  return { finite, increasing };
}

/** hasImpossibleSpeed: whether a sample is further from its anchor than maxSpeed × max(the time between
 *  them, speedWindowMs) + pointerSlopPx. The anchor is the latest earlier sample at least speedWindowMs
 *  before it, else the pointerdown point (0, 0) at t = 0. Expects finite, strictly increasing times. */
function hasImpossibleSpeed(trace, limits) {
  const n = trace.t.length;
  const windowMs = limits.speedWindowMs;
  let anchor = -1;
  let anchorT = 0;
  let anchorX = 0;
  let anchorY = 0;
  for (let i = 0; i < n; i++) {
    const ti = trace.t[i];
    while (anchor + 1 < i && trace.t[anchor + 1] <= ti - windowMs) {
      anchor += 1;
      anchorT = trace.t[anchor];
      anchorX = trace.x[anchor];
      anchorY = trace.y[anchor];
    }
    const span = ti - anchorT;
    const reach = limits.maxSpeed * (span > windowMs ? span : windowMs) + limits.pointerSlopPx;
    const dx = trace.x[i] - anchorX;
    const dy = trace.y[i] - anchorY;
    if (dx * dx + dy * dy > reach * reach) {
      return true;
    }
  }
  return false;
}

// ---------------------------------------------------------------- Velocity.swift

export const Velocity = Object.freeze({
  /** Velocity.zero. */
  zero: Object.freeze({ x: 0, y: 0 }),

  /** Velocity.release: the release velocity {x, y}, px/ms, of a trace: the least-squares slope of x(t)
   *  and y(t) over the samples within `windowMs` of the last one (inclusive); with fewer than two in the
   *  span, the last two samples. Fewer than two samples, or no time spread, gives zero. Centred sums. */
  release(trace, windowMs) {
    const { t, x: xs, y: ys } = trace;
    const n = t.length;
    if (n < 2) {
      return Velocity.zero;
    }
    const end = t[n - 1];
    let start = n - 1;
    while (start > 0 && end - t[start - 1] <= windowMs) {
      start -= 1;
    }
    if (n - start < 2) {
      start = n - 2;
    }
    const m = n - start;
    let st = 0;
    let sx = 0;
    let sy = 0;
    for (let i = start; i < n; i++) {
      st += t[i];
      sx += xs[i];
      sy += ys[i];
    }
    const mt = st / m;
    const mx = sx / m;
    const my = sy / m;
    let stt = 0;
    let stx = 0;
    let sty = 0;
    for (let i = start; i < n; i++) {
      const dt = t[i] - mt;
      stt += dt * dt;
      stx += dt * (xs[i] - mx);
      sty += dt * (ys[i] - my);
    }
    if (!(stt > 0)) {
      return Velocity.zero;
    }
    return { x: stx / stt, y: sty / stt };
  },
});

// ---------------------------------------------------------------- DragState.swift

export const DragState = Object.freeze({
  /** DragState.of: {candidate, progress} of a pointer offset (dx, dy) for a card w×h in a viewport vw×vh,
   *  with the pointerdown at viewport x `ox`. `candidate` is the direction with the largest projection (or
   *  the rule's candidate), `none` for rules that never throw; `progress` the fraction of the throw
   *  threshold reached along it, ≥ 0. */
  of(dx, dy, w, h, vw, vh, ox, profile) {
    switch (profile.rule) {
      case 'distanceOrFling': {
        const nx = dx / w;
        const ny = dy / h;
        let best = NONE;
        let bestProj = -Infinity;
        for (const direction of profile.directions) {
          const u = unit(direction);
          const proj = nx * u.x + ny * u.y;
          if (proj > bestProj) {
            best = direction;
            bestProj = proj;
          }
        }
        if (best === NONE) {
          return { candidate: NONE, progress: 0 };
        }
        const prog = bestProj / profile.distanceThreshold;
        return { candidate: best, progress: prog > 0 ? prog : 0 };
      }
      case 'classic': {
        const rx = capAtOne(dx / vw);
        const prog = (rx < 0 ? -rx : rx) / profile.classicXRatio;
        return { candidate: rx < 0 ? 'left' : 'right', progress: prog };
      }
      case 'zone': {
        const px = ox + dx;
        if (dx < 0) {
          const room = ox - profile.zoneInsetX;
          return { candidate: 'left', progress: room > 0 ? (ox - px) / room : 1 };
        }
        const room = vw - profile.zoneInsetX - ox;
        return { candidate: 'right', progress: room > 0 ? (px - ox) / room : 1 };
      }
      case 'koloda': {
        const px = 2 * dx / w;
        const py = 2 * dy / h;
        let best = NONE;
        let bestDist = Infinity;
        for (const direction of profile.directions) {
          const g = target(direction);
          const ex = px - g.x;
          const ey = py - g.y;
          const dist = ex * ex + ey * ey;
          if (dist < bestDist) {
            best = direction;
            bestDist = dist;
          }
        }
        if (best === NONE) {
          return { candidate: NONE, progress: 0 };
        }
        const g = target(best);
        let k = (px * g.x + py * g.y) / (g.x * g.x + g.y * g.y);
        if (k < 0) {
          k = 0;
        }
        if (k > 1) {
          k = 1;
        }
        return { candidate: best, progress: k / profile.kolodaThreshold };
      }
      case 'reveal': {
        const prog = (dx < 0 ? -dx : dx) / (w * profile.reveal.actionFraction);
        return { candidate: dx < 0 ? 'left' : 'right', progress: prog };
      }
      default:
        // springList never throws.
        return { candidate: NONE, progress: 0 };
    }
  },
});

/** DragState.capAtOne: the seed's `min(value, 1)`, capped above only, as in seed 000. */
function capAtOne(value) {
  return value < 1 ? value : 1;
}

// ---------------------------------------------------------------- Judge.swift

/** judge: the model's verdict {decision, candidate, velocity, progress, suspect} on a trace that passed
 *  checkTrace (release velocity, the profile's throw rule, progress and the suspect flag). */
export function judge(trace, profile) {
  const n = trace.t.length;
  const velocity = Velocity.release(trace, profile.velocityWindowMs);
  const dx = n > 0 ? trace.x[n - 1] : 0;
  const dy = n > 0 ? trace.y[n - 1] : 0;
  const ox = trace.ox ?? (trace.vw - trace.w) / 2 + trace.gx;
  const state = DragState.of(dx, dy, trace.w, trace.h, trace.vw, trace.vh, ox, profile);
  let decision = NONE;

  switch (profile.rule) {
    case 'distanceOrFling':
      if (state.candidate !== NONE) {
        const u = unit(state.candidate);
        const proj = dx / trace.w * u.x + dy / trace.h * u.y;
        const vproj = velocity.x * u.x + velocity.y * u.y;
        const flung = vproj >= profile.flingVelocity && proj >= profile.minFlingDistance;
        if (proj >= profile.distanceThreshold || flung) {
          decision = state.candidate;
        }
      }
      break;
    case 'classic': {
      // Vertical movement does not matter: a level drag counts (issue 26).
      const rx = capAtOne(dx / trace.vw);
      if (rx < -profile.classicXRatio) {
        decision = 'left';
      } else if (rx > profile.classicXRatio) {
        decision = 'right';
      }
      break;
    }
    case 'zone':
      if (longPressBegan(trace, profile.pressDelayMs, profile.pressSlopPx)) {
        const px = ox + dx;
        if (px < profile.zoneInsetX) {
          decision = 'left';
        } else if (px > trace.vw - profile.zoneInsetX) {
          decision = 'right';
        }
      }
      break;
    case 'koloda':
      if (state.candidate !== NONE) {
        const g = target(state.candidate);
        let k = (2 * dx / trace.w * g.x + 2 * dy / trace.h * g.y) / (g.x * g.x + g.y * g.y);
        if (k < 0) {
          k = 0;
        }
        if (k > 1) {
          k = 1;
        }
        if (k >= profile.kolodaThreshold) {
          decision = state.candidate;
        }
      }
      break;
    case 'reveal': {
      const travel = dx < 0 ? -dx : dx;
      if (travel >= profile.reveal.minTravelPx) {
        decision = RevealRow.direction(trace.x, profile.reveal.moveClampPx, profile.reveal.moveSamples);
      }
      break;
    }
    default:
      // springList never throws.
      break;
  }
  if (decision !== NONE && !profile.directions.includes(decision)) {
    decision = NONE;
  }
  return {
    decision,
    candidate: state.candidate,
    velocity,
    progress: state.progress,
    suspect: isSuspect(trace, profile.limits),
  };
}

/** longPressBegan (zone): the trace outlasted the press delay without moving more than the slop before it. */
function longPressBegan(trace, delayMs, slopPx) {
  const n = trace.t.length;
  if (n === 0 || trace.t[n - 1] < delayMs) {
    return false;
  }
  const slop2 = slopPx * slopPx;
  let i = 0;
  while (i < n && trace.t[i] < delayMs) {
    if (trace.x[i] * trace.x[i] + trace.y[i] * trace.y[i] > slop2) {
      return false;
    }
    i += 1;
  }
  return true;
}

// ---------------------------------------------------------------- Suspect.swift

/** isSuspect: physically possible but machine-like: near-constant sample intervals AND near-constant
 *  segment speed AND all points on a near-perfect straight line (tolerances in `limits`). Needs
 *  `suspectMinSamples` samples and at least two segments; fewer is never suspect. */
export function isSuspect(trace, limits) {
  const { t, x, y } = trace;
  const n = t.length;
  if (n < limits.suspectMinSamples || n <= 2) {
    return false;
  }
  const segments = n - 1;
  const meanDt = (t[n - 1] - t[0]) / segments;
  if (!(meanDt > 0)) {
    return false;
  }
  let speedSum = 0;
  for (let i = 1; i < n; i++) {
    const dt = t[i] - t[i - 1];
    const dev = dt - meanDt;
    if ((dev < 0 ? -dev : dev) > limits.suspectIntervalTolerance * meanDt) {
      return false;
    }
    const dx = x[i] - x[i - 1];
    const dy = y[i] - y[i - 1];
    speedSum += Math.sqrt(dx * dx + dy * dy) / dt;
  }
  const meanSpeed = speedSum / segments;
  if (!(meanSpeed > 0)) {
    return false;
  }
  for (let i = 1; i < n; i++) {
    const dt = t[i] - t[i - 1];
    const dx = x[i] - x[i - 1];
    const dy = y[i] - y[i - 1];
    const dev = Math.sqrt(dx * dx + dy * dy) / dt - meanSpeed;
    if ((dev < 0 ? -dev : dev) > limits.suspectSpeedTolerance * meanSpeed) {
      return false;
    }
  }
  // Distance from the first-to-last line, compared squared: |cross| / len <= tol.
  const lx = x[n - 1] - x[0];
  const ly = y[n - 1] - y[0];
  const len2 = lx * lx + ly * ly;
  const tol = limits.suspectLineTolerancePx;
  for (let i = 1; i < n - 1; i++) {
    const cross = lx * (y[i] - y[0]) - ly * (x[i] - x[0]);
    if (cross * cross > tol * tol * len2) {
      return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------- Classification.swift

export const Classification = Object.freeze({
  /** Classification.malformed: a line that could not be understood. */
  malformed: Object.freeze({
    decision: NONE, velocity: Velocity.zero, progress: 0, rejection: 'malformed', suspect: false,
  }),

  /** Classification.of: {decision, velocity, progress, rejection, suspect} of a decoded trace under a
   *  profile, with an optional claim (null or undefined: none), exactly as `swipedeck classify` prints it.
   *  A shape rule broken gives decision none, zero velocity and progress; a claim that disagrees keeps the
   *  model's own decision and names the rule in `rejection`. */
  of(trace, claimed, profile) {
    const broken = checkTrace(trace, profile.limits);
    if (broken !== null) {
      return { decision: NONE, velocity: Velocity.zero, progress: 0, rejection: broken, suspect: false };
    }
    const verdict = judge(trace, profile);
    let rejection = null;
    if (!isAbsent(claimed) && claimed !== verdict.decision) {
      rejection = verdict.decision === NONE ? 'not_a_throw' : 'decision_mismatch';
    }
    return {
      decision: verdict.decision,
      velocity: verdict.velocity,
      progress: verdict.progress,
      rejection,
      suspect: verdict.suspect,
    };
  },

  /** Classification.of(line:): one parsed input line {trace, claimed?}; anything Swift's decoder refuses
   *  (a trace that is not one, a claim that is not a decision name) is `malformed`. */
  ofLine(line, profile) {
    const trace = decodeTrace(line === null || typeof line !== 'object' ? null : line.trace);
    const claimed = line?.claimed ?? null;
    if (trace === null || !(claimed === null || DECISIONS.includes(claimed))) {
      return Classification.malformed;
    }
    return Classification.of(trace, claimed, profile);
  },
});

// ---------------------------------------------------------------- Motion.swift

export const Motion = Object.freeze({
  /** Motion.rotation: rotation of a dragged card, radians (clockwise positive): maxRotation × clamp(dx /
   *  basis, −1, 1), basis the card width or, with rotationByViewport, the viewport's; with
   *  rotateAboutGrabPoint the sign flips when the card was grabbed in its lower half (gy > h / 2). */
  rotation(dx, w, h, vw, gy, profile) {
    let r = dx / (profile.rotationByViewport ? vw : w);
    if (r > 1) {
      r = 1;
    }
    if (r < -1) {
      r = -1;
    }
    const sign = profile.rotateAboutGrabPoint && gy > h / 2 ? -1 : 1;
    return profile.maxRotation * r * sign;
  },

  /** Motion.overlayOpacity: overlay (LIKE / NOPE) opacity for a drag progress, 0 at overlayStart, 1 at
   *  overlayFull, linear between, clamped to [0, 1]. */
  overlayOpacity(progress, profile) {
    const o = (progress - profile.overlayStart) / (profile.overlayFull - profile.overlayStart);
    if (!(o > 0)) {
      return 0;
    }
    return o < 1 ? o : 1;
  },

  /** Motion.throwOut: the ThrowOut {x, y, durationMs} of a release at offset (dx, dy), px, with velocity
   *  {x, y}, px/ms, thrown towards `decision` (not none), in a viewport vw px wide. */
  throwOut(dx, dy, velocity, decision, vw, profile) {
    const distance = profile.exitDistanceFactor * vw;
    const u = unit(decision);
    switch (profile.throwStyle) {
      case 'alongRelease': {
        const speed = Math.sqrt(velocity.x * velocity.x + velocity.y * velocity.y);
        let ux = u.x;
        let uy = u.y;
        if (speed > 0 && velocity.x * u.x + velocity.y * u.y > 0) {
          ux = velocity.x / speed;
          uy = velocity.y / speed;
        }
        let ms = profile.throwMaxMs;
        if (speed > 0) {
          ms = distance / speed;
        }
        if (ms > profile.throwMaxMs) {
          ms = profile.throwMaxMs;
        }
        if (ms < profile.throwMinMs) {
          ms = profile.throwMinMs;
        }
        return { x: dx + ux * distance, y: dy + uy * distance, durationMs: ms };
      }
      case 'horizontalVelocityY':
        // Seed 000 takes y from the velocity in px/s: 1000 ms per s.
        return { x: u.x < 0 ? -distance : distance, y: velocity.y * 1000, durationMs: profile.throwMaxMs };
      default:
        // horizontalKeepY.
        return { x: u.x < 0 ? -distance : distance, y: dy, durationMs: profile.throwMaxMs };
    }
  },

  /** Motion.entrance: seed 000's entrance start {x, y, rotation} from three uniform numbers in [0, 1): x in
   *  [−300, 300] px, y in [−600, −300] px, rotation in [−90°, 90°] (the box Swift hard-codes). */
  entrance(r1, r2, r3) {
    return { x: -300 + 600 * r1, y: -300 - 300 * r2, rotation: (-90 + 180 * r3) * Math.PI / 180 };
  },
});

// ---------------------------------------------------------------- DampedSpring.swift

/** DampedSpring.init: a damped harmonic oscillator of mass 1 pulling towards 0, from SpringParameters
 *  {responseMs, dampingRatio}: {omega (rad/ms), zeta, state, settleTime, envelope}. Time in ms, position in
 *  any unit, velocity in units/ms. */
export function dampedSpring(parameters) {
  const omega = 2 * Math.PI / parameters.responseMs;
  const zeta = parameters.dampingRatio;

  /** DampedSpring.state(at:x0:v0:): {position, velocity} at time t from x0 moving at v0. */
  function state(t, x0, v0) {
    const w = omega;
    const z = zeta;
    if (z < 1) {
      const wd = w * Math.sqrt(1 - z * z);
      const a = x0;
      const b = (v0 + z * w * x0) / wd;
      const e = Math.exp(-z * w * t);
      const c = Math.cos(wd * t);
      const s = Math.sin(wd * t);
      const position = e * (a * c + b * s);
      const velocity = e * ((b * wd - z * w * a) * c - (a * wd + z * w * b) * s);
      return { position, velocity };
    } else if (z === 1) {
      const b = v0 + w * x0;
      const e = Math.exp(-w * t);
      return { position: (x0 + b * t) * e, velocity: (b - w * (x0 + b * t)) * e };
    }
    const root = Math.sqrt(z * z - 1);
    const r1 = -w * (z - root);
    const r2 = -w * (z + root);
    const c1 = (v0 - r2 * x0) / (r1 - r2);
    const c2 = x0 - c1;
    const e1 = Math.exp(r1 * t);
    const e2 = Math.exp(r2 * t);
    return { position: c1 * e1 + c2 * e2, velocity: c1 * r1 * e1 + c2 * r2 * e2 };
  }

  /** DampedSpring.settleTime: the time (ms) after which |position| stays below epsilon (bisection on the
   *  envelope); 0 when the envelope starts below it, or is NaN. */
  function settleTime(x0, v0, epsilon = 0.5) {
    if (!(envelope(0, x0, v0) > epsilon)) {
      return 0;
    }
    let hi = 1;
    // Search bounds, not physics: no further than 1e9 ms, 60 halvings.
    while (envelope(hi, x0, v0) > epsilon && hi < 1e9) {
      hi *= 2;
    }
    let lo = 0;
    for (let i = 0; i < 60; i++) {
      const mid = (lo + hi) / 2;
      if (envelope(mid, x0, v0) > epsilon) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return hi;
  }

  /** DampedSpring.envelope: a non-increasing bound on |position| for t ≥ 0. */
  function envelope(t, x0, v0) {
    const w = omega;
    const z = zeta;
    if (z < 1) {
      const wd = w * Math.sqrt(1 - z * z);
      const b = (v0 + z * w * x0) / wd;
      return Math.exp(-z * w * t) * Math.sqrt(x0 * x0 + b * b);
    } else if (z === 1) {
      // (|a| + |b|s) e^{-ws} peaks at s = 1/w − |a|/|b|; take the peak when t is before it.
      const a = Math.abs(x0);
      const b = Math.abs(v0 + w * x0);
      const peak = b > 0 ? Math.max(t, 1 / w - a / b) : t;
      return (a + b * peak) * Math.exp(-w * peak);
    }
    const root = Math.sqrt(z * z - 1);
    const r1 = -w * (z - root);
    const r2 = -w * (z + root);
    const c1 = (v0 - r2 * x0) / (r1 - r2);
    const c2 = x0 - c1;
    return Math.abs(c1) * Math.exp(r1 * t) + Math.abs(c2) * Math.exp(r2 * t);
  }

  return { omega, zeta, state, settleTime, envelope };
}

// ---------------------------------------------------------------- StackSlot.swift

export const StackSlot = Object.freeze({
  /** StackSlot.at: {depth, scaleX, scaleY, translateX, translateY, opacity, zIndex} of the card at `depth`
   *  of a stack of `count`, each `w` px wide, with StackParameters `stack`. Cards deeper than
   *  stack.visible − 1 get the last visible slot with opacity 0. */
  at(depth, count, w, stack) {
    const hidden = depth >= stack.visible;
    const d = hidden ? stack.visible - 1 : depth;
    const z = count - depth;
    if (stack.mode === 'inset') {
      const sx = (w - 2 * stack.insetX * d) / w;
      return {
        depth,
        scaleX: sx,
        scaleY: 1,
        translateX: 0,
        translateY: stack.insetY * d,
        opacity: hidden ? 0 : 1,
        zIndex: z,
      };
    }
    // scale.
    const scale = 1 - stack.scaleStep * d;
    const alpha = 1 - stack.alphaStep * d;
    return {
      depth,
      scaleX: scale,
      scaleY: scale,
      translateX: 0,
      translateY: -stack.offsetStep * d,
      opacity: hidden ? 0 : alpha,
      zIndex: z,
    };
  },
});

// ---------------------------------------------------------------- RevealRow.swift

export const RevealRow = Object.freeze({
  /** RevealRow.direction: from the sum of the last `samples` moves of xs, each clamped to ±clampPx (the
   *  upper bound first): right (close) if > 0, else left (open); none under two positions. */
  direction(xs, clampPx, samples) {
    const n = xs.length;
    if (n < 2) {
      return NONE;
    }
    let first = n - (samples > 0 ? samples : 0);
    if (first < 1) {
      first = 1;
    }
    let sum = 0;
    for (let i = first; i < n; i++) {
      let m = xs[i] - xs[i - 1];
      if (m > clampPx) {
        m = clampPx;
      }
      if (m < -clampPx) {
        m = -clampPx;
      }
      sum += m;
    }
    return sum > 0 ? 'right' : 'left';
  },

  /** RevealRow.slideDuration: the linear slide, ms: maxSlideMs × remaining distance / travel, clamped to
   *  [0, maxSlideMs]; `opening` slides towards −travel, else towards 0. travel ≤ 0 gives 0. */
  slideDuration(offset, travel, opening, maxSlideMs) {
    if (!(travel > 0)) {
      return 0;
    }
    const remaining = opening ? travel + offset : -offset;
    let ms = maxSlideMs * remaining / travel;
    if (ms > maxSlideMs) {
      ms = maxSlideMs;
    }
    if (!(ms > 0)) {
      ms = 0;
    }
    return ms;
  },
});

// ---------------------------------------------------------------- SpringList.swift

export const SpringList = Object.freeze({
  /** SpringList.lag: how far an item lags behind a drag step, px:
   *  scrollDelta × |touchY − itemY| / resistance. */
  lag(scrollDelta, touchY, itemY, resistance) {
    const d = touchY - itemY;
    return scrollDelta * (d < 0 ? -d : d) / resistance;
  },

  /** SpringList.edgeSpread: extra offset of item `index` of `count` when pulled `overscroll` px past the top
   *  (atTop: down by index + 1 gaps) or the bottom (up by count − index gaps), a gap being
   *  overscroll / resistance. */
  edgeSpread(index, count, overscroll, atTop, resistance) {
    const gap = overscroll / resistance;
    return atTop ? gap * (index + 1) : -gap * (count - index);
  },
});
