// `node --test Tests/js/`: the join puzzle's solver (Public/js/puzzle.js) against node's own SHA-256: it
// finds the number the server hid, with WebCrypto's digest and with its own SHA-256 (the page's fallback on an
// insecure origin), and says so when no number solves a puzzle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, webcrypto } from 'node:crypto';
import { batchSize, digestFor, hexBytes, sha256, solvePuzzle } from '../../Public/js/puzzle.js';

/** A puzzle as the server issues one (JoinPuzzleSigner.issue), hiding `number`. */
function puzzleHiding(number, maxNumber, salt = '0123456789abcdef0123456789abcdef') {
  const challenge = createHash('sha256').update(salt + number).digest('hex');
  return { algorithm: 'SHA-256', challenge, salt, maxNumber, issuedMs: 0, expiresMs: 1, signature: '' };
}

const hex = (bytes) => Buffer.from(bytes).toString('hex');

test('its SHA-256 is FIPS 180-4 on the standard vectors and on every length across the block edges', () => {
  assert.equal(hex(sha256(new Uint8Array())), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  assert.equal(hex(sha256(new TextEncoder().encode('abc'))),
    'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  for (let length = 0; length < 200; length++) {
    const bytes = new Uint8Array(length).map((_, i) => (i * 31 + length) & 0xff);
    assert.equal(hex(sha256(bytes)), createHash('sha256').update(bytes).digest('hex'), `length ${length}`);
  }
});

test('it finds the hidden number with WebCrypto, at the edges of a batch and of the range', async () => {
  const digest = digestFor(webcrypto.subtle);
  for (const number of [0, 1, batchSize - 1, batchSize, 777, 1000]) {
    assert.equal(await solvePuzzle(puzzleHiding(number, 1000), digest), number);
  }
});

test('without WebCrypto (an insecure origin) its own SHA-256 finds the same number', async () => {
  assert.equal(await solvePuzzle(puzzleHiding(4321, 5000), digestFor(undefined)), 4321);
});

test('a puzzle no number in 0…maxNumber solves gives null, after trying each once', async () => {
  let tried = 0;
  const counting = (bytes) => {
    tried++;
    return webcrypto.subtle.digest('SHA-256', bytes);
  };
  assert.equal(await solvePuzzle(puzzleHiding(301, 300), counting), null);
  assert.equal(tried, 301);
});

test('hexBytes reads the challenge', () => {
  assert.deepEqual([...hexBytes('00ff10a0')], [0, 255, 16, 160]);
});
