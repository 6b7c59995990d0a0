// `node --test Tests/js/`: a crude guard that physics.js keeps no physics numbers of its own: every
// constant must come from the profile JSON. It lists the numeric literals in the source (comments and
// strings removed) and fails on any outside ALLOWED. Each allowed literal is there for a reason:
//   0, 1, 2    — arithmetic (zero, clamps to ±1, signs, halves, 2π, Koloda's 2·dx/w, `n < 2` samples);
//   0.5        — sqrt(0.5) for the diagonal unit vectors, and settleTime's default epsilon (half a px, as
//                DampedSpring.settleTime's default);
//   1000       — a unit conversion, ms per s (seed 000's throw takes y from the velocity in px/s);
//   60, 1e9    — DampedSpring.settleTime's bisection: 60 halvings, search no further than 1e9 ms;
//   90, 180, 300, 600 — Motion.entrance: seed 000's off-screen entrance box (x ∈ [−300, 300] px,
//                y ∈ [−600, −300] px, rotation ∈ [−90°, 90°]) is hard-coded in the Swift model, not a
//                profile field, so the mirror has to spell it the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const ALLOWED = new Set([0, 1, 2, 0.5, 1000, 60, 1e9, 90, 180, 300, 600]);
const source = readFileSync(new URL('../../Public/js/physics.js', import.meta.url), 'utf8');

/** Numeric literals of JavaScript source, after removing comments, strings and template literals. */
export function numericLiterals(js) {
  const code = js
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\/\/[^\n]*/g, ' ')
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
  const re = /(?<![\w$.])(?:0[xX][\da-fA-F_]+|(?:\d[\d_]*\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)n?(?![\w$])/g;
  return [...code.matchAll(re)].map(m => Number(m[0].replace(/_/g, '').replace(/n$/, '')));
}

test('the literal scanner finds numbers and skips identifiers, comments and strings', () => {
  assert.deepEqual(numericLiterals("const a1 = 0.35, b = x0 * 2 + .5 - 1e9; // 7\n/* 8 */ s = '9' + \"10\" + `11`; c = 0x10"), [0.35, 2, 0.5, 1e9, 16]);
});

test('physics.js has no numeric literal besides maths, unit conversions and search bounds', () => {
  const stray = numericLiterals(source).filter(n => !ALLOWED.has(n));
  assert.deepEqual(stray, [], `physics.js contains numbers that belong in the profile: ${stray.join(', ')}`);
});

test('physics.js is a plain module: no DOM, no imports', () => {
  assert.doesNotMatch(source, /\b(document|window|navigator|require)\b|^\s*import\b/m);
});

test('physics.js exports the documented API', async () => {
  // One export per Swift type or free function of Sources/SwipePhysics that the pages, the parity runner or
  // the tests call (the header of physics.js maps each to its Swift file).
  const api = await import('../../Public/js/physics.js');
  assert.deepEqual(Object.keys(api).sort(), [
    'Classification', 'DECISIONS', 'DragState', 'Motion', 'RevealRow', 'SpringList', 'StackSlot', 'Velocity',
    'checkTrace', 'dampedSpring', 'decodeTrace', 'isSuspect', 'judge', 'target', 'unit',
  ]);
});
