// `node --test Tests/js/`: physics.js classifies every golden vector exactly as Swift did when
// Tests/Fixtures/golden.jsonl was generated (ParityGoldenTests.swift), with the profiles Swift encoded
// into Tests/Fixtures/profiles.json. deepStrictEqual compares numbers with Object.is, so -0 ≠ 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Classification, DECISIONS, RevealRow } from '../../Public/js/physics.js';

const fixture = name => readFileSync(new URL(`../Fixtures/${name}`, import.meta.url), 'utf8');
const profiles = Object.fromEntries(JSON.parse(fixture('profiles.json')).map(p => [p.name, p]));
const golden = fixture('golden.jsonl').split('\n').filter(Boolean).map(l => JSON.parse(l));

test('golden.jsonl covers every profile and every rejection code', () => {
  assert.ok(golden.length >= 40, `only ${golden.length} golden lines`);
  assert.deepEqual(new Set(golden.map(g => g.profile)), new Set(Object.keys(profiles)));
  const codes = new Set(golden.map(g => g.expected.rejection));
  for (const code of [null, 'malformed', 'size_out_of_range', 'too_few_samples', 'too_long', 'non_monotonic_time',
    'too_short', 'impossible_speed', 'decision_mismatch', 'not_a_throw']) assert.ok(codes.has(code), `no golden line for ${code}`);
});

for (const [i, g] of golden.entries()) {
  test(`golden ${i + 1} (${g.profile}): ${g.note}`, () => {
    assert.deepStrictEqual(Classification.ofLine(g.input, profiles[g.profile]), g.expected);
  });
}

test('the decision names are the ones the profiles use', () => {
  for (const p of Object.values(profiles)) for (const d of p.directions) assert.ok(DECISIONS.includes(d), d);
});

test('Classification.ofLine treats claimed undefined and null as no claim, and unknown claims as malformed', () => {
  const g = golden.find(g => g.note == 'thrown right, no claim'), p = profiles[g.profile];
  assert.deepStrictEqual(Classification.ofLine({ trace: g.input.trace }, p), g.expected);
  assert.deepStrictEqual(Classification.ofLine({ trace: g.input.trace, claimed: null }, p), g.expected);
  for (const bad of ['sideways', 3, true, ['right'], 'RIGHT']) {
    assert.equal(Classification.ofLine({ trace: g.input.trace, claimed: bad }, p).rejection, 'malformed');
  }
  // Strings have a length and spread without error: arrays of samples must be arrays (Swift's decoder says so).
  for (const bad of [undefined, null, 5, 'trace', [], { ...g.input.trace, w: '320' }, { ...g.input.trace, x: [0, null] },
    { ...g.input.trace, t: '', x: '', y: '' }, { ...g.input.trace, t: [], x: '', y: '' }, { ...g.input.trace, t: 'ab', x: 'ab', y: 'ab' },
    { ...g.input.trace, ox: 'left' }]) {
    assert.equal(Classification.ofLine({ trace: bad }, p).rejection, 'malformed');
  }
  for (const bad of [undefined, null, 5, 'line', []]) assert.equal(Classification.ofLine(bad, p).rejection, 'malformed');
});

test('Classification.of on a decoded trace: the same result as the line, with the claim second as in Swift', () => {
  const g = golden.find(g => g.note == 'thrown right, no claim'), p = profiles[g.profile];
  assert.deepStrictEqual(Classification.of(g.input.trace, null, p), g.expected);
  assert.equal(Classification.of(g.input.trace, 'left', p).rejection, 'decision_mismatch');
});

test('RevealRow.direction clamps each move with the upper bound first, then the lower', () => {
  // Only a negative clampPx tells the orders apart: Swift's `if m > c { m = c }; if m < -c { m = -c }` turns
  // the move +10 with c = -5 into -5, then into +5, so the sum is positive: right.
  assert.equal(RevealRow.direction([0, 10], -5, 5), 'right');
  assert.equal(RevealRow.direction([0, 10], 5, 5), 'right');
  assert.equal(RevealRow.direction([0, -10], 5, 5), 'left');
});
