// The parity corpus in a browser engine: Tests/Browser/test_engine_parity.py serves this page beside the
// physics.js the swipedeck server ships (its exact bytes), the corpus ParityEngineTests.swift wrote, and
// Tests/Fixtures; it calls window.startParity() and polls window.parity until it is done or failed.
// The corpus's output lines go back by POST /out (ParityEngineTests.swift compares them with Swift);
// the golden vectors' classifications come back in window.parity.golden (the test compares them).
import * as physics from './physics.js';
import { createParityLine, exactJSON } from './parity-line.mjs';

/** Lines computed between two yields to the event loop (keeps the page answering the driver). */
const chunkLines = 2000;

async function fetchText(url) {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`${url}: HTTP ${response.status}`);
  }
  return response.text();
}

function nonEmptyLines(text) {
  return text.split('\n').filter(Boolean);
}

async function runCorpus() {
  const profiles = JSON.parse(await fetchText('corpus/profiles.json'));
  const lines = nonEmptyLines(await fetchText('corpus/in.jsonl'));
  const parityLine = createParityLine(physics, profiles);
  const out = [];
  let computeMs = 0;
  for (let start = 0; start < lines.length; start += chunkLines) {
    const began = performance.now();
    for (const line of lines.slice(start, start + chunkLines)) {
      out.push(parityLine(line));
    }
    computeMs += performance.now() - began;
    await new Promise((resolve) => setTimeout(resolve));
  }
  const engine = encodeURIComponent(new URLSearchParams(location.search).get('engine') || 'page');
  const response = await fetch('out?engine=' + engine, { method: 'POST', body: out.join('\n') + '\n' });
  if (!response.ok) {
    throw new Error(`POST out: HTTP ${response.status}`);
  }
  return { lines: out.length, computeMs };
}

async function runGolden() {
  const profileList = JSON.parse(await fetchText('fixtures/profiles.json'));
  const profiles = Object.fromEntries(profileList.map((profile) => [profile.name, profile]));
  const golden = nonEmptyLines(await fetchText('fixtures/golden.jsonl')).map((line) => JSON.parse(line));
  return golden.map((g) => exactJSON(physics.Classification.ofLine(g.input, profiles[g.profile])));
}

async function run() {
  window.parity = { state: 'running' };
  try {
    const golden = await runGolden();
    const corpus = await runCorpus();
    window.parity = { state: 'done', golden, ...corpus };
  } catch (error) {
    window.parity = { state: 'failed', error: String(error && error.stack || error) };
  }
}

window.startParity = () => {
  run();
  return true;
};
window.parity = { state: 'ready' };
