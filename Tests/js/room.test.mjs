// `node --test Tests/js/`: a room's page (Public/js/room.js) on fake elements and a scripted EventSource:
// the members strip shows progress only, a match raises "It's a match!" once (a reconnect's state event
// does not raise it again), an unmatch takes it out of the drawer, finished shows the closest cards and
// the second round, expired hides the stack.
import { test } from 'node:test';
import assert from 'node:assert/strict';

/** A fake element: children, classes, text, dataset, style and listeners. */
function element(className = '') {
  const listeners = {};
  const styles = {};
  return {
    className, hidden: false, textContent: '', dataset: {}, children: [], offsetHeight: 120,
    style: {
      setProperty(name, value) {
        styles[name] = value;
      },
      removeProperty(name) {
        delete styles[name];
      },
      values: styles,
    },
    append(...children) {
      this.children.push(...children);
    },
    replaceChildren(...children) {
      this.children = children;
    },
    addEventListener(type, listener) {
      listeners[type] = listener;
    },
    focus() {},
    querySelector() {
      return null;
    },
    fire(type) {
      listeners[type]();
    },
    text() {
      return this.textContent + this.children.map((child) => child.text()).join(' ');
    },
  };
}

globalThis.document = {
  querySelector: () => null,
  createElement: () => element(),
  documentElement: { dataset: { root: '/' } },
};
const { createRoomPage } = await import('../../Public/js/room.js');

function page() {
  const parts = {
    members: element(), matchList: element(), matchCount: element(), finished: element(), closestList: element(),
    secondRound: element(), expired: element(), face: element(), by: element(), close: element(), panel: element(),
    drawer: element(), words: element(), newRoom: element(),
  };
  // The native <dialog>: showModal() opens it, close() closes it and fires 'close'.
  parts.overlay = element();
  parts.overlay.open = false;
  parts.overlay.showModal = () => {
    parts.overlay.open = true;
  };
  parts.overlay.close = () => {
    parts.overlay.open = false;
    parts.overlay.fire('close');
  };
  parts.overlay.querySelector = (s) => ({ '.match-face': parts.face, '.match-by': parts.by, '.match-close': parts.close,
    '.match-panel': parts.panel })[s];
  parts.root = element('room');
  parts.root.dataset.code = 'K7M2QX';
  parts.root.querySelector = (s) => ({ '.room-members': parts.members, '.match-list': parts.matchList,
    '.match-count': parts.matchCount, '.match-overlay': parts.overlay, '.room-finished': parts.finished,
    '.closest-list': parts.closestList, '.second-round': parts.secondRound, '.room-expired': parts.expired,
    '.matches-drawer': parts.drawer, '.finished-words': parts.words, '.room-new': parts.newRoom })[s];
  parts.stackWrap = element();
  parts.controls = element();
  parts.leave = element();
  globalThis.document.querySelector = (s) => ({ '.deck-page .stack-wrap': parts.stackWrap,
    '.deck-page .controls': parts.controls, '.deck-page .room-leave': parts.leave })[s] ?? null;
  parts.keys = { addEventListener: (type, listener, capture) => {
    parts.onKey = capture && type === 'keydown' ? listener : parts.onKey;
  } };
  return parts;
}

class FakeEventSource {
  constructor(url) {
    FakeEventSource.last = this;
    this.url = url;
    this.listeners = {};
  }

  addEventListener(type, listener) {
    this.listeners[type] = listener;
  }

  send(type, data) {
    this.listeners[type]({ data: JSON.stringify(data) });
  }
}

const card = (id) => ({ id, title: `Card ${id}`, image: null, accent: '#123456' });
const state = {
  code: 'K7M2QX', rule: { kind: 'all' }, round: 1, state: 'open', cardCount: 24, you: 1,
  members: [{ id: 1, name: 'Ana', decided: 0, finished: false, left: false }],
  matches: [], closest: [],
};
const profile = { returnSpring: { responseMs: 260, dampingRatio: 0.68 } };

function open(parts, reduceMotion = true) {
  const frames = [];
  return createRoomPage(parts.root, state, profile, {
    document: globalThis.document,
    EventSource: FakeEventSource,
    clock: { now: () => 0, frame: (callback) => frames.push(callback) },
    reduceMotion,
    reload: () => {
      parts.reloaded = true;
    },
    keys: parts.keys,
  });
}

test('the page listens to its room and shows members with their progress only', () => {
  const parts = page();
  open(parts);
  const stream = FakeEventSource.last;
  assert.equal(stream.url, '/api/v1/rooms/K7M2QX/events');
  stream.send('member', { member: { id: 2, name: 'Ben' }, change: 'joined' });
  stream.send('progress', { member: 2, decided: 5 });
  assert.deepEqual(parts.members.children.map((item) => item.text()), ['Ana 0 of 24', 'Ben 5 of 24']);
  assert.equal(parts.members.children[0].className, 'member you');
  stream.send('member', { member: { id: 2, name: 'Ben' }, change: 'left' });
  assert.equal(parts.members.children.length, 1);
});

test('a match raises the overlay once, lists it and an unmatch takes it away', () => {
  const parts = page();
  open(parts);
  const stream = FakeEventSource.last;
  stream.send('member', { member: { id: 2, name: 'Ben' }, change: 'joined' });
  stream.send('match', { match: { card: card(7), at: 5, likedBy: [1, 2] } });
  assert.equal(parts.overlay.open, true);
  assert.equal(parts.overlay.dataset.card, 7);
  assert.equal(parts.by.textContent, 'Liked by Ana and Ben');
  assert.equal(parts.matchCount.textContent, '1');
  parts.close.fire('click');
  assert.equal(parts.overlay.open, false);
  // A reconnect starts with the whole state again: nothing new to celebrate.
  stream.send('state', { ...state, members: [...state.members], matches: [{ card: card(7), at: 5, likedBy: [1, 2] }] });
  assert.equal(parts.overlay.open, false);
  stream.send('unmatch', { card: 7 });
  assert.equal(parts.matchList.children.length, 0);
  assert.equal(parts.matchCount.textContent, '0');
});

test('the overlay rises on the profile\'s return spring unless motion is reduced', () => {
  const parts = page();
  open(parts, false);
  FakeEventSource.last.send('match', { match: { card: card(3), at: 5, likedBy: [1] } });
  assert.match(parts.panel.style.transform, /^translateY\(120px\)$/);
});

test('finished without a match offers the closest cards and a second round; expired hides the stack', () => {
  const parts = page();
  open(parts);
  const stream = FakeEventSource.last;
  assert.equal(parts.finished.hidden, true);
  assert.equal(parts.stackWrap.hidden, false);
  assert.notEqual(parts.drawer.open, true, 'the matches drawer stays closed while the stack is up');
  stream.send('finished', { closest: [{ card: card(4), likes: 1 }] });
  assert.equal(parts.finished.hidden, false);
  assert.equal(parts.drawer.open, true, 'the finished panel points at the drawer: it opens');
  assert.equal(parts.words.textContent, 'Nothing matched. These came closest:');
  assert.equal(parts.newRoom.hidden, true);
  assert.equal(parts.secondRound.hidden, false);
  assert.equal(parts.closestList.children[0].text(), 'Card 4 1 liked it');
  assert.equal(parts.stackWrap.hidden, true);
  FakeEventSource.last.listeners.round({ data: '{}' });
  assert.equal(parts.reloaded, true, 'a second round reloads the page for its deal');
  stream.send('state', { ...state, state: 'expired' });
  assert.equal(parts.expired.hidden, false);
  assert.equal(parts.finished.hidden, true);
});

test('finished with nobody liking any card says so and offers a new room', () => {
  const parts = page();
  open(parts);
  assert.equal(parts.newRoom.hidden, true);
  FakeEventSource.last.send('finished', { closest: [] });
  assert.equal(parts.finished.hidden, false);
  assert.equal(parts.words.textContent, 'Nobody liked any card this time.');
  assert.equal(parts.newRoom.hidden, false);
  assert.equal(parts.secondRound.hidden, true);
});

/** A key press as the window's capture listener gets it: whether it went on to the deck. */
function press(parts, key) {
  let stopped = false;
  parts.onKey({ key, stopPropagation: () => {
    stopped = true;
  }, preventDefault: () => {
    parts.tabPrevented = key === 'Tab';
  } });
  return !stopped;
}

test('over "It\'s a match!" no key swipes the card behind; Escape closes it; a finished room takes no key', () => {
  const parts = page();
  open(parts);
  assert.equal(press(parts, 'ArrowLeft'), true, 'an open room without the overlay: the deck has its keys');
  FakeEventSource.last.send('match', { match: { card: card(3), at: 5, likedBy: [1] } });
  assert.equal(parts.overlay.open, true);
  assert.equal(press(parts, 'ArrowLeft'), false);
  assert.equal(press(parts, 'z'), false);
  assert.equal(press(parts, 'Enter'), true, 'Enter still presses the focused "Keep swiping"');
  assert.equal(press(parts, 'Tab'), true, 'Tab stays on "Keep swiping"');
  assert.equal(parts.tabPrevented, true);
  assert.equal(press(parts, 'Escape'), false);
  assert.equal(parts.overlay.open, false);
  assert.equal(parts.controls.hidden, false);
  FakeEventSource.last.send('finished', { closest: [] });
  assert.equal(parts.controls.hidden, true, 'a finished room shows no buttons');
  assert.equal(parts.leave.hidden, true, 'nor "Leave the room"');
  assert.equal(press(parts, 'z'), false, 'nor takes an undo key');
});
