// `node --test Tests/js/`: the deck page's pure helpers (Public/js/deck-model.js), which deck.js wires to
// the page: keys, retry waits, the phrases the page shows and announces, and the stack's state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  announcement, cardsLeft, deliveryRequest, feedbackMessage, isParticipantRefusal, isRefusal, isWorthRetrying,
  keyAction, mayActWithoutDrag, maxRetrySeconds, offlineBannerText, offlineDescription, overlayFamily, pendingPhrase,
  refusalEffect, refusalMessage, retrySeconds, stackState, stageState, stageWords, waitingPhrase, waitingWords,
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

test('stackState host-paced: the card on the big screen, else waiting or at the limit, never finished', () => {
  assert.equal(stackState('open', 1, 1, 2, null, true), 'open');
  assert.equal(stackState('open', 0, 0, 2, null, true), 'waiting');
  assert.equal(stackState('open', 0, 0, 5, 5, true), 'limitReached');
  assert.equal(stackState('closed', 0, 0, 2, null, true), 'closed');
  assert.equal(stackState('open', 0, 0, 2, null, false), 'finished');
});

test('waitingWords: why a host-paced phone has no card (DeckStage.waitingWords in Swift)', () => {
  assert.equal(waitingWords({ paced: false }), '');
  assert.equal(waitingWords({ paced: true, step: 0 }), 'The presenter starts soon. The first card shows here by itself.');
  assert.equal(waitingWords({ paced: true, step: 4 }), 'That was the last card. Thank you!');
  assert.equal(
    waitingWords({ paced: true, step: 2, card: 7, cardOpen: false }),
    'Time is up for this card. The next one shows here when the presenter moves on.');
  assert.equal(
    waitingWords({ paced: true, step: 2, card: 7, cardOpen: true }),
    'Thank you! The next card shows here when the presenter moves on.');
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

test('overlayFamily: diagonals show their left or right overlay', () => {
  assert.equal(overlayFamily('up_left'), 'left');
  assert.equal(overlayFamily('down_right'), 'right');
  assert.equal(overlayFamily('up'), 'up');
});

test('isWorthRetrying: no answer, 429 and server errors wait and try again; other answers are final', () => {
  assert.deepEqual([0, 429, 500, 503].map(isWorthRetrying), [true, true, true, true]);
  assert.deepEqual([200, 201, 400, 404, 409, 422].map(isWorthRetrying), [false, false, false, false, false, false]);
});

test('isParticipantRefusal: 400 or 403 naming a missing or unknown participant', () => {
  assert.equal(isParticipantRefusal(400, 'participant_required'), true);
  assert.equal(isParticipantRefusal(403, 'unknown_participant'), true);
  assert.equal(isParticipantRefusal(409, 'participant_required'), false);
  assert.equal(isParticipantRefusal(400, 'invalid_body'), false);
  assert.equal(isParticipantRefusal(400, undefined), false);
});

test('refusalEffect: the model\'s refusal and the deck\'s state put the card back; only the model\'s toasts', () => {
  assert.deepEqual(refusalEffect(201, undefined, false), { toast: false, putBack: false });
  assert.deepEqual(refusalEffect(422, 'decision_mismatch', false), { toast: true, putBack: true });
  assert.deepEqual(refusalEffect(409, 'deck_closed', false), { toast: false, putBack: true });
  assert.deepEqual(refusalEffect(409, 'quota_reached', false), { toast: false, putBack: true });
  assert.deepEqual(refusalEffect(409, 'already_swiped', false), { toast: true, putBack: false });
  assert.deepEqual(refusalEffect(404, 'not_found', true), { toast: false, putBack: false });
  assert.deepEqual(refusalEffect(409, 'deck_closed', true), { toast: false, putBack: false });
  assert.deepEqual(refusalEffect(500, undefined, true), { toast: true, putBack: false });
  assert.equal(isRefusal(404, false), true);
  assert.equal(isRefusal(404, true), false);
});

test('refusalMessage: the server\'s words, else the status', () => {
  assert.equal(refusalMessage({ error: { message: 'Too fast.' } }, 422, false), 'Not counted: Too fast.');
  assert.equal(refusalMessage(null, 502, true), 'Undo failed: HTTP 502');
});

test('offlineBannerText: offline before unreachable before joining; none when all is well', () => {
  assert.equal(offlineBannerText(true, true, true, 2),
    'You are offline. 2 swipes wait on this device until you are back online.');
  assert.equal(offlineBannerText(false, true, true, 1),
    'The server cannot be reached. 1 swipe waits on this device until it answers.');
  assert.equal(offlineBannerText(false, false, true, 0),
    'Many people are joining from your network right now. Swipes you make wait on this device until you are in.');
  assert.equal(offlineBannerText(false, false, false, 3), '');
});

test('offlineDescription: who cannot be reached, and whether swipes wait', () => {
  assert.deepEqual(offlineDescription(true, 2), {
    title: 'You are offline',
    text: '2 swipes wait on this device and will be sent when this device is back online.',
  });
  assert.deepEqual(offlineDescription(false, 0), {
    title: 'The server cannot be reached',
    text: 'Your swipes are all sent. More cards come as soon as the server answers.',
  });
});

test('deliveryRequest: a swipe POSTs its body under its key; an undo DELETEs the swipe\'s key', () => {
  const body = { card: 7, direction: 'left', input: 'key', trace: null, decisionMs: 12 };
  const swipe = deliveryRequest({ key: 'k1', body }, '/api/v1/decks/d', '/base/api/v1/swipes/');
  assert.equal(swipe.url, '/api/v1/decks/d/swipes');
  assert.equal(swipe.init.method, 'POST');
  assert.deepEqual(swipe.init.headers, { 'Content-Type': 'application/json', 'Idempotency-Key': 'k1' });
  assert.deepEqual(JSON.parse(swipe.init.body), body);
  const undo = deliveryRequest({ key: 'k2', undo: 'k1' }, '/api/v1/decks/d', '/base/api/v1/swipes/');
  assert.deepEqual(undo, { url: '/base/api/v1/swipes/k1', init: { method: 'DELETE' } });
});

test('mayActWithoutDrag: a direction the profile offers, buttons allowed, an open stack', () => {
  const directions = ['left', 'right'];
  assert.equal(mayActWithoutDrag('left', directions, true, 'open'), true);
  assert.equal(mayActWithoutDrag('up', directions, true, 'open'), false);
  assert.equal(mayActWithoutDrag('left', directions, false, 'open'), false);
  assert.equal(mayActWithoutDrag('left', directions, true, 'limitReached'), false);
});

test('feedbackMessage: right or wrong in the deck\'s words, nothing without feedback', () => {
  const labels = { left: 'NOPE', right: 'LIKE', up: 'SUPER', down: 'LATER' };
  assert.equal(feedbackMessage({ correct: true, answer: 'right' }, labels), 'Correct: LIKE.');
  assert.equal(feedbackMessage({ correct: false, answer: 'left' }, labels), 'Not quite: the answer was NOPE.');
  assert.equal(feedbackMessage({ correct: false, answer: 'up_left' }, labels), 'Not quite: the answer was NOPE.');
  assert.equal(feedbackMessage({ correct: true, answer: 'down' }, labels), 'Correct: LATER.');
  assert.equal(feedbackMessage(undefined, labels), '');
});

test('keys typed into a field are typing, not the deck\'s (a room code with a Z)', async () => {
  const { isTyping } = await import('../../Public/js/deck-model.js');
  assert.equal(isTyping({ tagName: 'INPUT', type: 'text' }), true);
  assert.equal(isTyping({ tagName: 'INPUT', type: 'number' }), true);
  assert.equal(isTyping({ tagName: 'TEXTAREA' }), true);
  assert.equal(isTyping({ tagName: 'DIV', isContentEditable: true }), true);
  assert.equal(isTyping({ tagName: 'INPUT', type: 'radio' }), false);
  assert.equal(isTyping({ tagName: 'BUTTON' }), false);
  assert.equal(isTyping({ tagName: 'SECTION' }), false);
  assert.equal(isTyping({}), false, 'the window itself');
});

test('stageState: a Lock closes the page, an Unlock opens it again, a page served closed is served again', () => {
  assert.equal(stageState('open', false, 'open'), 'closed');
  assert.equal(stageState('open', false, 'finished'), 'closed');
  assert.equal(stageState('noCards', false, 'noCards'), 'noCards');
  assert.equal(stageState('closed', true, 'open'), 'open');
  assert.equal(stageState('closed', true, 'limitReached'), 'open');
  assert.equal(stageState('closed', true, 'closed'), 'reload');
  assert.equal(stageState('open', true, 'open'), 'open');
  assert.equal(stageState('noCards', true, 'noCards'), 'noCards');
});

test('stageWords: the results shown, a timer counting down (never below 0), or nothing (DeckStage.bannerWords in Swift)', () => {
  assert.equal(stageWords(true, null), 'The results are on the big screen.');
  assert.equal(stageWords(true, 12), 'The results are on the big screen.');
  assert.equal(stageWords(false, 30), 'The results show in 30 s.');
  assert.equal(stageWords(false, -2), 'The results show in 0 s.');
  assert.equal(stageWords(false, null), '');
  assert.equal(stageWords(false, undefined), '');
});
