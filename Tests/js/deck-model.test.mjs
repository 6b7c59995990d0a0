// `node --test Tests/js/`: the deck page's pure helpers (Public/js/deck-model.js), which deck.js wires to
// the page: keys, retry waits, the phrases the page shows and announces, and the stack's state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  announcement, cardsLeft, keyAction, maxRetrySeconds, pendingPhrase, retrySeconds, stackState, waitingPhrase,
} from '../../Public/js/deck-model.js';

const answer = (retryAfter) => ({ headers: new Headers(retryAfter === undefined ? {} : { 'Retry-After': retryAfter }) });

test('keyAction: arrows name a direction, Backspace and z undo, other keys are left alone', () => {
  assert.equal(keyAction('ArrowLeft'), 'left');
  assert.equal(keyAction('ArrowUp'), 'up');
  assert.equal(keyAction('Backspace'), 'undo');
  assert.equal(keyAction('z'), 'undo');
  assert.equal(keyAction('Z'), 'undo');
  assert.equal(keyAction('Enter'), '');
  assert.equal(keyAction('a'), '');
});

test('retrySeconds: the server\'s Retry-After when it says one, else 1, 2, 4, 8, 8 (capped)', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 9].map((attempt) => retrySeconds(null, attempt)), [1, 2, 4, 8, 8, 8]);
  assert.equal(retrySeconds(answer('3'), 0), 3);
  assert.equal(retrySeconds(answer('3600'), 0), maxRetrySeconds);
  assert.equal(retrySeconds(answer(), 2), 4);
  assert.equal(retrySeconds(answer('soon'), 1), 2);
});

test('waitingPhrase and pendingPhrase agree in number', () => {
  assert.equal(waitingPhrase(1), '1 swipe waits on this device');
  assert.equal(waitingPhrase(3), '3 swipes wait on this device');
  assert.equal(pendingPhrase(0, 'you are back online'), 'Swipes you make wait on this device until you are back online.');
  assert.equal(pendingPhrase(1, 'you are back online'), '1 swipe waits on this device until you are back online.');
  assert.equal(pendingPhrase(2, 'later'), '2 swipes wait on this device until later.');
});

test('stackState: what only the server knows first, then finished, then the quota', () => {
  assert.equal(stackState('closed', 3, 3, 0, null), 'closed');
  assert.equal(stackState('noCards', 0, 0, 0, null), 'noCards');
  assert.equal(stackState('open', 0, 0, 5, 5), 'finished');
  assert.equal(stackState('open', 1, 0, 5, 5), 'limitReached');
  assert.equal(stackState('open', 2, 4, 4, 5), 'open');
  assert.equal(stackState('open', 2, 4, 5, 5), 'limitReached');
  assert.equal(stackState('open', 2, 4, 50, null), 'open');
});

test('cardsLeft: the undecided cards, no more than the quota leaves, never below 0', () => {
  assert.equal(cardsLeft(7, 2, null), 7);
  assert.equal(cardsLeft(7, 2, 5), 3);
  assert.equal(cardsLeft(2, 0, 5), 2);
  assert.equal(cardsLeft(7, 9, 5), 0);
});

test('announcement: the next card and the count, or the end', () => {
  assert.equal(announcement('Lisbon', 4), 'Next: Lisbon. 4 left.');
  assert.equal(announcement('', 4), '4 left.');
  assert.equal(announcement(undefined, 0), 'You are all caught up.');
});
