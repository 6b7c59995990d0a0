// `node --test Tests/js/`: the match room's pure helpers (Public/js/room-model.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyRoomEvent, finishedWords, likedByWords, newMatches, offersNewRoom, offersSecondRound, parseRoomCode, progressWords, roomPhase, roomRefusal,
  roomRule, ruleWords,
} from '../../Public/js/room-model.js';

const card = (id) => ({ id, title: `Card ${id}`, image: null, accent: '#123456' });

function room(overrides = {}) {
  return {
    code: 'K7M2QX', rule: { kind: 'all' }, round: 1, state: 'open', cardCount: 50, you: 1,
    members: [
      { id: 1, name: 'Ana', decided: 0, finished: false, left: false },
      { id: 2, name: 'Ben', decided: 3, finished: false, left: false },
    ],
    matches: [], closest: [], ...overrides,
  };
}

test('a typed code is upper-cased, its spaces and dashes dropped, a pasted link gives its code', () => {
  assert.deepEqual(parseRoomCode('k7m 2qx'), { code: 'K7M2QX' });
  assert.deepEqual(parseRoomCode(' K7M-2QX '), { code: 'K7M2QX' });
  assert.deepEqual(parseRoomCode('https://decks.example.org/r/k7m2qx?x=1'), { code: 'K7M2QX' });
});

test('a wrong code gets a sentence saying what is wrong', () => {
  assert.match(parseRoomCode('').error, /Type the room's code/);
  assert.match(parseRoomCode('K7M2Q').error, /6 letters and digits; this one has 5/);
  assert.match(parseRoomCode('K7M2Q0').error, /no 0, 1, I, L or O/);
  assert.match(parseRoomCode('K7M2QI').error, /no 0, 1, I, L or O/);
});

test('the rule picker gives the API\'s rule JSON or says why not', () => {
  assert.deepEqual(roomRule('all', ''), { rule: { kind: 'all' } });
  assert.deepEqual(roomRule('atLeast', '2'), { rule: { kind: 'atLeast', count: 2 } });
  assert.deepEqual(roomRule('share', '60'), { rule: { kind: 'share', percent: 60 } });
  assert.match(roomRule('atLeast', '0').error, /at least 1/);
  assert.match(roomRule('atLeast', '1.5').error, /whole number/);
  assert.match(roomRule('share', '101').error, /1 to 100/);
});

test('rules, progress and likers in words', () => {
  assert.equal(ruleWords({ kind: 'all' }), 'Everyone likes it');
  assert.equal(ruleWords({ kind: 'atLeast', count: 3 }), 'At least 3 like it');
  assert.equal(ruleWords({ kind: 'share', percent: 60 }), 'At least 60 % like it');
  assert.equal(progressWords({ decided: 12, finished: false }, 50), '12 of 50');
  assert.equal(progressWords({ decided: 50, finished: true }, 50), 'done');
  const members = [{ id: 1, name: 'Ana' }, { id: 2, name: 'Ben' }, { id: 3, name: 'Cy' }];
  assert.equal(likedByWords([2], members), 'Ben');
  assert.equal(likedByWords([3, 1], members), 'Ana and Cy');
  assert.equal(likedByWords([1, 2, 3], members), 'Ana, Ben and Cy');
});

test('events fold into the state without touching the old one', () => {
  const before = room();
  let after = applyRoomEvent(before, 'member', { member: { id: 3, name: 'Cy' }, change: 'joined' });
  assert.deepEqual(after.members.map((member) => member.name), ['Ana', 'Ben', 'Cy']);
  assert.equal(before.members.length, 2);
  after = applyRoomEvent(after, 'progress', { member: 2, decided: 4 });
  assert.equal(after.members[1].decided, 4);
  after = applyRoomEvent(after, 'progress', { member: 3, decided: 50 });
  assert.deepEqual(after.members.map((member) => member.finished), [false, false, true]);
  after = applyRoomEvent(after, 'member', { member: { id: 2, name: 'Ben' }, change: 'left' });
  assert.deepEqual(after.members.map((member) => member.left), [false, true, false]);
  assert.equal(after.members[1].decided, 4, 'what the event does not say stays');
  const match = { card: card(7), at: 10, likedBy: [1, 2] };
  after = applyRoomEvent(after, 'match', { match });
  assert.equal(applyRoomEvent(after, 'match', { match }), after, 'a repeated match is one match');
  assert.deepEqual(after.matches.map((m) => m.card.id), [7]);
  after = applyRoomEvent(after, 'unmatch', { card: 7 });
  assert.deepEqual(after.matches, []);
  after = applyRoomEvent(after, 'finished', { closest: [{ card: card(9), likes: 2 }] });
  assert.equal(after.state, 'finished');
  assert.equal(roomPhase(after), 'finished');
  assert.equal(offersSecondRound(after), true);
  assert.equal(applyRoomEvent(after, 'heartbeat', {}), after);
  const fresh = room({ state: 'expired' });
  assert.equal(applyRoomEvent(after, 'state', fresh), fresh);
  assert.equal(roomPhase(fresh), 'expired');
});

test('a finished room with a match offers no second round', () => {
  const state = room({ state: 'finished', matches: [{ card: card(1), at: 1, likedBy: [1, 2] }],
    closest: [{ card: card(2), likes: 1 }] });
  assert.equal(offersSecondRound(state), false);
  assert.equal(offersSecondRound(room({ state: 'finished' })), false, 'nothing close: nothing to retry');
});

test('a finished room says what came of it; nobody liking any card offers a new room', () => {
  const matched = room({ state: 'finished', matches: [{ card: card(1), at: 1, likedBy: [1, 2] }] });
  assert.equal(finishedWords(matched), 'Your matches are in the drawer above.');
  assert.equal(offersNewRoom(matched), false);
  const close = room({ state: 'finished', closest: [{ card: card(2), likes: 1 }] });
  assert.equal(finishedWords(close), 'Nothing matched. These came closest:');
  assert.equal(offersNewRoom(close), false);
  const nobody = room({ state: 'finished' });
  assert.equal(finishedWords(nobody), 'Nobody liked any card this time.');
  assert.equal(offersNewRoom(nobody), true);
  assert.equal(offersNewRoom(room()), false, 'an open room is still deciding');
});

test('only matches the page has not shown are new', () => {
  const one = room({ matches: [{ card: card(1), at: 1, likedBy: [1, 2] }] });
  const two = applyRoomEvent(one, 'match', { match: { card: card(2), at: 2, likedBy: [1, 2] } });
  assert.deepEqual(newMatches(one, two).map((match) => match.card.id), [2]);
  assert.deepEqual(newMatches(two, applyRoomEvent(two, 'state', two)), []);
});

test('refusals in words', () => {
  assert.match(roomRefusal(404, 'room_not_found'), /No room has that code/);
  assert.match(roomRefusal(409, 'room_full'), /full/);
  assert.match(roomRefusal(500, undefined), /refused \(500\)/);
  assert.match(roomRefusal(0, undefined), /Offline/);
});
