// `node --test Tests/js/`: the deck page's delivery (Public/js/deck-delivery.js) over a real shared queue
// on a Map-backed storage, a scripted fetch and timers run by hand: order, retries, joining, answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDelivery } from '../../Public/js/deck-delivery.js';
import { createSharedQueue } from '../../Public/js/queue.js';

function memoryStorage() {
  const values = new Map();
  return {
    getItem: (key) => (values.has(key) ? values.get(key) : null),
    setItem: (key, value) => values.set(key, String(value)),
  };
}

/** Timers that run only when told: `pending` lists {callback, ms}. */
function manualTimers() {
  const pending = [];
  let next = 1;
  return {
    pending,
    setTimeout: (callback, ms) => {
      pending.push({ id: next, callback, ms });
      next++;
      return next - 1;
    },
    clearTimeout: (id) => {
      const index = pending.findIndex((timer) => timer.id === id);
      if (index >= 0) {
        pending.splice(index, 1);
      }
    },
    runNext() {
      pending.shift().callback();
    },
  };
}

/** A fetch that answers from `script` in order (a function of the request, or null: no answer). */
function scriptedFetch(script) {
  const requests = [];
  const fetch = async (url, init) => {
    requests.push({ url, ...init });
    const answer = script.shift();
    if (!answer) {
      throw new TypeError('Failed to fetch');
    }
    return answer();
  };
  return { fetch, requests };
}

const json = (status, value, headers = {}) => () => new Response(JSON.stringify(value), { status, headers });
const swipe = (card) => ({ card, direction: 'right', input: 'button', trace: null, decisionMs: 900 });
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

function deliveryWith(script, joining = false, extra = {}) {
  const queue = createSharedQueue(memoryStorage(), 'd');
  const timers = manualTimers();
  const network = scriptedFetch(script);
  const answers = [];
  let reachabilityCalls = 0;
  const delivery = createDelivery({
    queue,
    deck: 'd',
    api: '/api/v1/decks/d',
    undoBase: '/api/v1/swipes/',
    joinUrl: '/d/d',
    fetch: network.fetch,
    timers,
    locks: undefined,
    timeout: () => undefined,
    joining,
    onReachability: () => {
      reachabilityCalls++;
    },
    onAnswer: async (item, response) => {
      answers.push({ key: item.key, status: response.status });
    },
    ...extra,
  });
  return { queue, timers, network, answers, delivery, reachability: () => reachabilityCalls };
}

test('the queue goes out in order under each item\'s Idempotency-Key, and each answer is handed on', async () => {
  const page = deliveryWith([json(201, {}), json(201, {})]);
  page.queue.addSwipe('k1', swipe(1));
  page.queue.addSwipe('k2', swipe(2));
  page.delivery.deliver();
  await settle();
  assert.deepEqual(page.network.requests.map((r) => [r.method, r.url, r.headers['Idempotency-Key']]), [
    ['POST', '/api/v1/decks/d/swipes', 'k1'],
    ['POST', '/api/v1/decks/d/swipes', 'k2'],
  ]);
  assert.deepEqual(page.answers, [{ key: 'k1', status: 201 }, { key: 'k2', status: 201 }]);
  assert.deepEqual(page.queue.items(), []);
});

test('no answer keeps the item, says the server is unreachable and tries again after 1 s, then 2 s', async () => {
  const page = deliveryWith([null, null, json(201, {})]);
  page.queue.addSwipe('k1', swipe(1));
  page.delivery.deliver();
  await settle();
  assert.equal(page.delivery.isUnreachable(), true);
  assert.equal(page.reachability(), 1);
  assert.deepEqual(page.timers.pending.map((timer) => timer.ms), [1000]);
  page.timers.runNext();
  await settle();
  assert.deepEqual(page.timers.pending.map((timer) => timer.ms), [2000]);
  page.timers.runNext();
  await settle();
  assert.equal(page.delivery.isUnreachable(), false);
  assert.deepEqual(page.answers, [{ key: 'k1', status: 201 }]);
  assert.equal(page.network.requests.length, 3);
  assert.deepEqual(page.network.requests.map((r) => r.headers['Idempotency-Key']), ['k1', 'k1', 'k1']);
});

test('a 503 waits the server\'s Retry-After; a 409 is final and handed on', async () => {
  const page = deliveryWith([json(503, {}, { 'Retry-After': '3' }), json(409, { error: { code: 'duplicate' } })]);
  page.queue.addSwipe('k1', swipe(1));
  page.delivery.deliver();
  await settle();
  assert.deepEqual(page.timers.pending.map((timer) => timer.ms), [3000]);
  assert.deepEqual(page.answers, []);
  page.timers.runNext();
  await settle();
  assert.deepEqual(page.answers, [{ key: 'k1', status: 409 }]);
  assert.deepEqual(page.queue.items(), []);
});

test('a participant refusal keeps the swipe and joins: a HEAD of the page, then the swipe goes out', async () => {
  const refusal = json(403, { error: { code: 'unknown_participant' } });
  const joined = () => new Response(null, { status: 200 });
  const page = deliveryWith([refusal, joined, json(201, {})]);
  page.queue.addSwipe('k1', swipe(1));
  page.delivery.deliver();
  await settle();
  assert.equal(page.delivery.isJoining(), true);
  assert.deepEqual(page.queue.items().map((item) => item.key), ['k1']);
  assert.deepEqual(page.timers.pending.map((timer) => timer.ms), [1000]);
  page.timers.runNext();
  await settle();
  assert.deepEqual(page.network.requests.map((r) => [r.method, r.url]), [
    ['POST', '/api/v1/decks/d/swipes'],
    ['HEAD', '/d/d'],
    ['POST', '/api/v1/decks/d/swipes'],
  ]);
  assert.equal(page.delivery.isJoining(), false);
  assert.deepEqual(page.answers, [{ key: 'k1', status: 201 }]);
});

test('a page that came without a participant id sends nothing until it has joined', async () => {
  const busy = () => new Response(null, { status: 200, headers: { 'Retry-After': '7' } });
  const page = deliveryWith([busy], true);
  page.queue.addSwipe('k1', swipe(1));
  page.delivery.deliver();
  page.delivery.scheduleJoin(1);
  await settle();
  assert.deepEqual(page.network.requests, []);
  page.timers.runNext();
  await settle();
  assert.deepEqual(page.network.requests.map((r) => r.method), ['HEAD']);
  assert.deepEqual(page.timers.pending.map((timer) => timer.ms), [7000]);
  assert.equal(page.delivery.isJoining(), true);
});

test('an undo of a sent swipe is a DELETE of its key, behind the POST', async () => {
  const page = deliveryWith([json(201, {}), () => new Response(null, { status: 204 })]);
  page.queue.addSwipe('k1', swipe(1));
  page.queue.markSent('k1');
  page.queue.addUndo('k1', 1);
  page.delivery.deliver();
  await settle();
  assert.deepEqual(page.network.requests.map((r) => [r.method, r.url]), [
    ['POST', '/api/v1/decks/d/swipes'],
    ['DELETE', '/api/v1/swipes/k1'],
  ]);
  assert.deepEqual(page.answers.map((answer) => answer.status), [201, 204]);
  assert.deepEqual(page.queue.items(), []);
});

const issued = { salt: 'ab', challenge: 'cd', maxNumber: 9, issuedMs: 1, expiresMs: 2, signature: 'ef' };

/** A solver that answers 7 for any puzzle and records what it was given. */
function fakeSolver() {
  const given = [];
  return { given, solve: async (puzzle) => {
    given.push(puzzle);
    return 7;
  } };
}

test('a page that came with a join puzzle solves it at once, joins with the solution, then delivers', async () => {
  const solver = fakeSolver();
  let joins = 0;
  const joined = () => new Response(null, { status: 204 });
  const page = deliveryWith([joined, json(201, {})], true, { puzzle: issued, solve: solver.solve, onJoined: () => {
    joins++;
  } });
  page.queue.addSwipe('k1', swipe(1));
  page.delivery.deliver();
  page.delivery.scheduleJoin(0);
  await settle();
  assert.deepEqual(page.network.requests, [], 'nothing goes out before the join is due');
  page.timers.runNext();
  await settle();
  assert.deepEqual(page.network.requests.map((r) => [r.method, r.url]), [
    ['POST', '/api/v1/decks/d/join'],
    ['POST', '/api/v1/decks/d/swipes'],
  ]);
  assert.deepEqual(JSON.parse(page.network.requests[0].body), { puzzle: { ...issued, number: 7 } });
  assert.deepEqual(solver.given, [issued]);
  assert.equal(page.delivery.isJoining(), false);
  assert.equal(page.delivery.isSolving(), false);
  assert.equal(joins, 1);
  assert.deepEqual(page.answers, [{ key: 'k1', status: 201 }]);
});

test('a refused solution is followed by a fresh puzzle when the budget is still spent', async () => {
  const solver = fakeSolver();
  const fresh = { ...issued, salt: 'fresh' };
  const stale = json(409, { error: { code: 'puzzle_stale' } });
  const busy = () => new Response(null, { status: 200, headers: { 'Retry-After': '9' } });
  const script = [stale, busy, json(201, fresh), () => new Response(null, { status: 204 }), json(201, {})];
  const page = deliveryWith(script, true, { puzzle: issued, solve: solver.solve });
  page.queue.addSwipe('k1', swipe(1));
  page.delivery.scheduleJoin(0);
  page.timers.runNext();
  await settle();
  assert.equal(page.delivery.isJoining(), true);
  assert.deepEqual(page.timers.pending.map((timer) => timer.ms), [1000]);
  page.timers.runNext();
  await settle();
  assert.deepEqual(page.network.requests.map((r) => [r.method, r.url]), [
    ['POST', '/api/v1/decks/d/join'],
    ['HEAD', '/d/d'],
    ['POST', '/api/v1/decks/d/puzzles'],
    ['POST', '/api/v1/decks/d/join'],
    ['POST', '/api/v1/decks/d/swipes'],
  ]);
  assert.deepEqual(solver.given.map((puzzle) => puzzle.salt), ['ab', 'fresh']);
  assert.equal(page.delivery.isJoining(), false);
});

test('no answer to a solution tries the same puzzle again (it may not have arrived)', async () => {
  const solver = fakeSolver();
  const page = deliveryWith([null, () => new Response(null, { status: 204 })], true,
    { puzzle: issued, solve: solver.solve });
  page.delivery.scheduleJoin(0);
  page.timers.runNext();
  await settle();
  assert.deepEqual(page.timers.pending.map((timer) => timer.ms), [5000]);
  page.timers.runNext();
  await settle();
  assert.deepEqual(solver.given.map((puzzle) => puzzle.salt), ['ab', 'ab']);
  assert.equal(page.delivery.isJoining(), false);
});
