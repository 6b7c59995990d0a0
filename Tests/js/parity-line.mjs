// One line of the parity corpus through physics.js, shared by the node runner (parity-runner.mjs) and the
// browser page (parity-page.mjs), so every engine computes exactly what ParityTests.swift compares.
//
// Input line: {"p": index into profiles.json, "aux": {...}, "input": {"trace": …, "claimed"?: …}}; `input` is
// exactly a `swipedeck classify` line. Output line: {"c": Classification.ofLine(…), "s": [strings], "n": "numbers"}:
// "s" and "n" hold the other functions' results in the order of `ParityTests.extras`. "n" is one
// space-separated string (quick for Swift to read exactly with strtod) of JavaScript's shortest round-trip
// spellings, with "-0" for negative zero (String(-0) and JSON.stringify(-0) both print 0), "NaN", "Infinity"
// and "-Infinity". In "c" those four are strings in place of the number.

const special = (v) => (Object.is(v, -0) ? '-0' : Number.isFinite(v) ? null : String(v));
const exact = (_, v) => (typeof v == 'number' && special(v) ? special(v) : v);

/** JSON text of `value` with -0, NaN and the infinities spelled as strings (JSON has no such numbers). */
export function exactJSON(value) {
  return JSON.stringify(value, exact);
}
const spell = (v) => (Object.is(v, -0) ? '-0' : String(v));
const shapeRules = new Set([
  'malformed', 'size_out_of_range', 'too_few_samples', 'too_long', 'non_monotonic_time', 'too_short',
  'impossible_speed',
]);

/** A function from an input line (text) to its output line (text), for physics module `P` and `profiles`. */
export function createParityLine(P, profiles) {
  return function parityLine(line) {
    const { p: pi, aux: a, input } = JSON.parse(line);
    const p = profiles[pi];
    const c = P.Classification.ofLine(input, p);
    // The classification's numbers when the trace passed the shape rules, else the aux stand-ins.
    const valid = !shapeRules.has(c.rejection);
    const progress = valid ? c.progress : a.pr;
    const velocity = valid ? c.velocity : { x: a.vx, y: a.vy };
    const decision = c.decision != 'none' ? c.decision : a.d;
    const listSpring = { responseMs: 1000 / p.springList.frequencyHz, dampingRatio: p.springList.damping };
    const springs = [p.returnSpring, listSpring, a.spring];
    const ds = P.DragState.of(a.dx, a.dy, a.w, a.h, a.vw, a.vh, a.ox, p);
    const th = P.Motion.throwOut(a.dx, a.dy, velocity, decision, a.vw, p);
    const en = P.Motion.entrance(a.r1, a.r2, a.r3);
    const spring = P.dampedSpring(springs[a.k]);
    const slot = (d) => {
      const s = P.StackSlot.at(d, a.count, a.w, p.stack);
      return [s.depth, s.scaleX, s.scaleY, s.translateX, s.translateY, s.opacity, s.zIndex];
    };
    const n = [
      ds.progress,
      P.Motion.rotation(a.dx, a.w, a.h, a.vw, a.gy, p),
      P.Motion.overlayOpacity(progress, p),
      th.x, th.y, th.durationMs,
      ...[0, 1, 2, 3].flatMap(slot),
      ...a.ts.flatMap((t) => {
        const state = spring.state(t, a.x0, a.v0);
        return [state.position, state.velocity];
      }),
      spring.settleTime(a.x0, a.v0),
      P.RevealRow.slideDuration(a.off, a.travel, a.opening, p.reveal.maxSlideMs),
      P.SpringList.lag(a.sd, a.ty, a.iy, p.springList.scrollResistance),
      P.SpringList.edgeSpread(a.idx, a.cnt, a.os, a.top, p.springList.boundaryResistance),
      en.x, en.y, en.rotation,
    ];
    const s = [ds.candidate, P.RevealRow.direction(a.xs, p.reveal.moveClampPx, p.reveal.moveSamples)];
    return exactJSON({ c, s, n: n.map(spell).join(' ') });
  };
}
