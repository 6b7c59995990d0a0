// `node --test Tests/js/`: the delivery queue deck.js shares between the tabs of a browser, over a
// Map-backed stand-in for localStorage (two queues on one storage are two tabs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSharedQueue, waitingSwipes, newIdempotencyKey } from '../../Public/js/queue.js';

function memoryStorage() {
  const values = new Map();
  return {
    getItem: (key) => (values.has(key) ? values.get(key) : null),
    setItem: (key, value) => values.set(key, String(value)),
  };
}

const swipe = (card) => ({ card, direction: 'right', input: 'button', trace: null, decisionMs: 900 });

test('swipes queue in order and count as decided', () => {
  const queue = createSharedQueue(memoryStorage(), 'd');
  queue.addSwipe('k1', swipe(1));
  queue.addSwipe('k2', swipe(2));
  assert.deepEqual(queue.items().map((item) => item.key), ['k1', 'k2']);
  assert.deepEqual([...queue.decidedCards()].sort(), [1, 2]);
});

test('an undo of a swipe never sent cancels it; of a sent one queues a DELETE behind it', () => {
  const queue = createSharedQueue(memoryStorage(), 'd');
  queue.addSwipe('k1', swipe(1));
  queue.addSwipe('k2', swipe(2));
  queue.addUndo('k1', 1);
  assert.deepEqual(queue.items().map((item) => item.key), ['k2']);
  queue.markSent('k2');
  queue.addUndo('k2', 2);
  const items = queue.items();
  assert.equal(items.length, 2);
  assert.equal(items[0].key, 'k2');
  assert.equal(items[0].sent, 1);
  assert.equal(items[1].undo, 'k2');
  assert.notEqual(items[1].key, 'k2');
  assert.deepEqual(waitingSwipes(items), []);
  assert.deepEqual([...queue.decidedCards()], []);
});

test('a card stays decided after its swipe is delivered, for every tab of the browser', () => {
  const storage = memoryStorage();
  const thisTab = createSharedQueue(storage, 'd');
  const otherTab = createSharedQueue(storage, 'd');
  thisTab.addSwipe('k1', swipe(7));
  thisTab.remove('k1');
  assert.deepEqual(thisTab.items(), []);
  assert.ok(otherTab.decidedCards().has(7));
  assert.ok(!createSharedQueue(storage, 'other-deck').decidedCards().has(7));
});

test('the server rendering a card undecided clears it from the ledger unless its swipe still waits', () => {
  const queue = createSharedQueue(memoryStorage(), 'd');
  queue.addSwipe('k1', swipe(1));
  queue.addSwipe('k2', swipe(2));
  queue.remove('k1');
  queue.trustServer([1, 2, 3]);
  assert.deepEqual([...queue.decidedCards()], [2]);
});

test('isOurs names the two keys of this deck (and a cleared storage)', () => {
  const queue = createSharedQueue(memoryStorage(), 'd');
  assert.ok(queue.isOurs('sd-queue:d'));
  assert.ok(queue.isOurs('sd-decided:d'));
  assert.ok(queue.isOurs(null));
  assert.ok(!queue.isOurs('sd-queue:e'));
});

test('Idempotency-Keys are 32 hex digits or a UUID, and differ', () => {
  const first = newIdempotencyKey();
  assert.match(first, /^([0-9a-f]{32}|[0-9a-f-]{36})$/);
  assert.notEqual(first, newIdempotencyKey());
});
