// The join puzzle's solver (Sources/SwipedeckServer/Domain/JoinPuzzle.swift: an ALTCHA-style proof of
// work): the number n in 0…maxNumber whose SHA-256 of salt + n (n in decimal) is the challenge. Every
// number it uses comes from the server's puzzle. Pure: the digest is given — WebCrypto's in the page,
// node's in Tests/js/puzzle.test.mjs — and where WebCrypto is missing (a page served over plain http
// from a LAN address is no secure context, so it has no crypto.subtle) this module's own SHA-256 stands in.

/** Digests started before the solver awaits them: WebCrypto answers each on another thread. */
export const batchSize = 64;

/**
 * The number that solves `puzzle` ({salt, challenge, maxNumber}), or null when none in 0…maxNumber does
 * (a puzzle that is not what the server issued). `digest(bytes)` resolves to the SHA-256 of a Uint8Array as
 * an ArrayBuffer (or a Uint8Array). Awaiting each batch yields to the page, so the person can drag the first
 * card while the device works.
 */
export async function solvePuzzle(puzzle, digest) {
  const target = hexBytes(puzzle.challenge);
  const encoder = new TextEncoder();
  for (let start = 0; start <= puzzle.maxNumber; start += batchSize) {
    const end = Math.min(start + batchSize - 1, puzzle.maxNumber);
    const pending = [];
    for (let n = start; n <= end; n++) {
      pending.push(digest(encoder.encode(puzzle.salt + n)));
    }
    const hashes = await Promise.all(pending);
    const found = hashes.findIndex((hash) => sameBytes(new Uint8Array(hash), target));
    if (found >= 0) {
      return start + found;
    }
  }
  return null;
}

/** The page's digest: WebCrypto's SHA-256 where the page has it (`subtle`), else this module's. */
export function digestFor(subtle) {
  if (subtle && typeof subtle.digest === 'function') {
    return (bytes) => subtle.digest('SHA-256', bytes);
  }
  return (bytes) => Promise.resolve(sha256(bytes));
}

/** The bytes of a string of hex digits. */
export function hexBytes(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) {
    bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  }
  return bytes;
}

function sameBytes(a, b) {
  if (a.length !== b.length) {
    return false;
  }
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) {
      return false;
    }
  }
  return true;
}

// FIPS 180-4's SHA-256 round constants and initial hash value.
const ROUND = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const INITIAL = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

function rotate(x, n) {
  return (x >>> n) | (x << (32 - n));
}

/** SHA-256 of a Uint8Array (FIPS 180-4), as a Uint8Array of 32 bytes. */
export function sha256(bytes) {
  const bitLength = bytes.length * 8;
  const padded = new Uint8Array(Math.ceil((bytes.length + 9) / 64) * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 0x100000000));
  view.setUint32(padded.length - 4, bitLength >>> 0);
  const hash = INITIAL.slice();
  const words = new Uint32Array(64);
  for (let block = 0; block < padded.length; block += 64) {
    for (let t = 0; t < 16; t++) {
      words[t] = view.getUint32(block + 4 * t);
    }
    for (let t = 16; t < 64; t++) {
      const w15 = words[t - 15];
      const w2 = words[t - 2];
      const s0 = rotate(w15, 7) ^ rotate(w15, 18) ^ (w15 >>> 3);
      const s1 = rotate(w2, 17) ^ rotate(w2, 19) ^ (w2 >>> 10);
      words[t] = (words[t - 16] + s0 + words[t - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, h] = hash;
    for (let t = 0; t < 64; t++) {
      const sum1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25);
      const choice = (e & f) ^ (~e & g);
      const first = (h + sum1 + choice + ROUND[t] + words[t]) >>> 0;
      const sum0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22);
      const majority = (a & b) ^ (a & c) ^ (b & c);
      const second = (sum0 + majority) >>> 0;
      h = g;
      g = f;
      f = e;
      e = (d + first) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (first + second) >>> 0;
    }
    const next = [a, b, c, d, e, f, g, h];
    for (let i = 0; i < 8; i++) {
      hash[i] = (hash[i] + next[i]) >>> 0;
    }
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  hash.forEach((word, i) => outView.setUint32(4 * i, word));
  return out;
}
