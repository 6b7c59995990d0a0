// `node --test Tests/js/`: physics.js throws every trace of Tests/Fixtures/real-input.jsonl the way the
// page did when it was recorded (scripts/measure_traces.py through Chromium's own input pipeline): no
// honest drag is refused by a trace rule. RealInputTests.swift checks the same lines in Swift.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Classification } from '../../Public/js/physics.js';

const fixture = name => readFileSync(new URL(`../Fixtures/${name}`, import.meta.url), 'utf8');
const profiles = Object.fromEntries(JSON.parse(fixture('profiles.json')).map(p => [p.name, p]));
const lines = fixture('real-input.jsonl').split('\n').filter(Boolean).map(l => JSON.parse(l));

/** Whether two consecutive samples are under 1 ms apart and at least 8 px apart: a burst the browser
 *  stamped as it arrived. */
function hasBurst({ t, x, y }) {
  return t.some((time, i) => i > 0 && time - t[i - 1] < 1 && (x[i] - x[i - 1]) ** 2 + (y[i] - y[i - 1]) ** 2 >= 64);
}

test('real-input.jsonl holds touch and mouse flicks, bursts among them', () => {
  assert.ok(lines.length >= 40, `only ${lines.length} lines`);
  const inputs = new Set(lines.map(l => l.input.split(' ')[0]));
  assert.deepEqual(inputs, new Set(['touch', 'mouse']));
  assert.ok(lines.filter(l => hasBurst(l.trace)).length >= 20, 'fewer than 20 traces with a burst');
});

for (const [i, line] of lines.entries()) {
  test(`real input ${i + 1} (${line.input}, ${line.trace.t.length} samples): thrown ${line.claimed}`, () => {
    const verdict = Classification.ofLine(line, profiles[line.profile]);
    assert.equal(verdict.rejection, null);
    assert.equal(verdict.decision, line.claimed);
  });
}
