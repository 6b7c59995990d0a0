// Parity runner: `node Tests/js/parity-runner.mjs <in.jsonl> <out.jsonl> <profiles.json>`, driven by
// Tests/SwipePhysicsTests/ParityTests.swift (which writes the inputs and compares the outputs). The lines'
// formats are in parity-line.mjs, which the browser engines' page (parity-page.mjs) runs too.
import { readFileSync, writeFileSync } from 'node:fs';
import * as P from '../../Public/js/physics.js';
import { createParityLine } from './parity-line.mjs';

const [inPath, outPath, profilesPath] = process.argv.slice(2);
if (!profilesPath) throw new Error('usage: parity-runner.mjs <in.jsonl> <out.jsonl> <profiles.json>');
const parityLine = createParityLine(P, JSON.parse(readFileSync(profilesPath, 'utf8')));

const out = [];
for (const line of readFileSync(inPath, 'utf8').split('\n')) {
  if (line) out.push(parityLine(line));
}
writeFileSync(outPath, out.join('\n') + '\n');
