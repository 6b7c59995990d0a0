// `node --test Tests/js/`: the deck page's "Decide together" and "Join a room" (Public/js/deck-together.js)
// on fake elements, a scripted fetch and a fake navigator.
import { test } from 'node:test';
import assert from 'node:assert/strict';

// The module wires the page's section when there is one; under node there is none.
globalThis.document = { querySelector: () => null, documentElement: { dataset: { root: '/' } } };
const { createTogether } = await import('../../Public/js/deck-together.js');

/** A fake element: attributes as properties, listeners kept, `fire(type)` runs them. */
function element(props = {}) {
  const listeners = {};
  return {
    hidden: false, textContent: '', value: '', src: '', href: '', dataset: {},
    addEventListener(type, listener) {
      listeners[type] = listener;
    },
    focus() {
      this.focused = true;
    },
    select() {
      this.selected = true;
    },
    fire(type) {
      return listeners[type]({ preventDefault() {} });
    },
    ...props,
  };
}

/** The rooms section: the create form (rule `kind`, name, count, percent, the two options), what a made room shows, the join form. */
function section(kind = 'all') {
  const parts = {
    createError: element({ hidden: true }), joinError: element({ hidden: true }), code: element(),
    name: element({ value: '  Ana ' }), count: element({ value: '2' }), percent: element({ value: '60' }),
    rule: element({ value: kind }), roomCode: element(), link: element(), qr: element(), go: element(),
    likedFirst: element({ checked: false }), endOnFirstMatch: element({ checked: false }), madeRule: element(),
    atLeastRule: element({ checked: false }), shareRule: element({ checked: false }),
    startPanel: element({ open: false, scrollIntoView() {
      this.scrolled = true;
    } }),
    joinPanel: element({ open: false, scrollIntoView() {
      this.scrolled = true;
    } }),
    share: element(), made: null, create: null, join: null,
  };
  parts.made = element({ hidden: true, querySelector: (s) => ({ '.room-code': parts.roomCode, '.room-link': parts.link,
    '.room-qr': parts.qr, '.room-go': parts.go, '.room-share': parts.share, '.room-made-rule': parts.madeRule })[s] });
  parts.create = element({ querySelector: (s) => ({ '.field-error': parts.createError, '[name=name]': parts.name,
    '[name=count]': parts.count, '[name=percent]': parts.percent, '[name=rule]:checked': parts.rule,
    '[name=likedFirst]': parts.likedFirst, '[name=endOnFirstMatch]': parts.endOnFirstMatch,
    '[name=rule][value=atLeast]': parts.atLeastRule, '[name=rule][value=share]': parts.shareRule })[s] });
  parts.join = element({ querySelector: (s) => ({ '.field-error': parts.joinError,
    'input[name=code]': parts.code })[s] });
  parts.root = element({ dataset: { api: '/api/v1/decks/lunch' }, querySelector: (s) => ({ '.room-create': parts.create,
    '.room-made': parts.made, '.room-join': parts.join, '.together-start': parts.startPanel,
    '.together-join': parts.joinPanel })[s] });
  return parts;
}

function browser(answers, navigator = {}) {
  const requests = [];
  const assigned = [];
  return {
    requests, assigned,
    fetch: async (url, init) => {
      requests.push({ url, init });
      const [status, body] = answers.shift();
      return { status, ok: status < 300, json: async () => body };
    },
    location: { origin: 'https://decks.example.org', assign: (url) => assigned.push(url) },
    navigator,
    timeout: () => undefined,
  };
}

test('a room started with the picked rule and name shows its code, link, QR code and share', async () => {
  const page = section('share');
  let shared = null;
  const parts = browser([[201, { code: 'K7M2QX' }]], { share: async (data) => {
    shared = data;
  } });
  createTogether(page.root, parts);
  await page.create.fire('submit');
  assert.equal(parts.requests[0].url, '/api/v1/decks/lunch/rooms');
  assert.deepEqual(JSON.parse(parts.requests[0].init.body),
    { rule: { kind: 'share', percent: 60 }, likedFirst: false, endOnFirstMatch: false, name: 'Ana' });
  assert.equal(page.roomCode.textContent, 'K7M2QX');
  assert.equal(page.madeRule.textContent, 'at least 60 % like it', 'the made room repeats its rule');
  assert.equal(page.link.value, 'https://decks.example.org/r/K7M2QX');
  assert.equal(page.qr.src, '/r/K7M2QX/qr.svg');
  assert.equal(page.go.href, '/r/K7M2QX');
  assert.equal(page.made.hidden, false);
  assert.equal(page.create.hidden, true);
  assert.equal(page.share.textContent, 'Share');
  page.share.onclick();
  assert.deepEqual(shared, { title: 'Decide together', text: 'Room K7M2QX', url: 'https://decks.example.org/r/K7M2QX' });
});

test('the ticked options are sent with the rule', async () => {
  const page = section();
  page.likedFirst.checked = true;
  page.endOnFirstMatch.checked = true;
  const parts = browser([[201, { code: 'K7M2QX' }]]);
  createTogether(page.root, parts);
  await page.create.fire('submit');
  assert.deepEqual(JSON.parse(parts.requests[0].init.body),
    { rule: { kind: 'all' }, likedFirst: true, endOnFirstMatch: true, name: 'Ana' });
});

test('typing a number or clicking into it picks its rule; an opened panel scrolls into view with its field focused', () => {
  const page = section();
  createTogether(page.root, browser([]));
  page.count.fire('click');
  assert.equal(page.atLeastRule.checked, true);
  page.percent.fire('input');
  assert.equal(page.shareRule.checked, true);
  page.joinPanel.open = true;
  page.joinPanel.fire('toggle');
  assert.equal(page.joinPanel.scrolled, true);
  assert.equal(page.code.focused, true);
  page.startPanel.fire('toggle');
  assert.equal(page.startPanel.scrolled, undefined, 'a closing panel does not move the page');
});

test('arriving at #decide-together (a finished room\'s "Start a new room") opens the start form', () => {
  const page = section();
  const parts = browser([]);
  parts.location.hash = '#decide-together';
  createTogether(page.root, parts);
  assert.equal(page.startPanel.open, true);
});

test('without a share sheet the button copies the link', async () => {
  const page = section();
  const copied = [];
  createTogether(page.root, browser([[201, { code: 'K7M2QX' }]], { clipboard: { writeText: async (text) => {
    copied.push(text);
  } } }));
  await page.create.fire('submit');
  assert.equal(page.share.textContent, 'Copy link');
  await page.share.onclick();
  await Promise.resolve();
  assert.deepEqual(copied, ['https://decks.example.org/r/K7M2QX']);
  assert.equal(page.share.textContent, 'Copied ✓');
});

test('a refusal or a bad rule is said next to the create form', async () => {
  const page = section('atLeast');
  page.count.value = '0';
  const parts = browser([[403, { error: { code: 'rooms_off' } }]]);
  createTogether(page.root, parts);
  await page.create.fire('submit');
  assert.match(page.createError.textContent, /at least 1/);
  assert.equal(parts.requests.length, 0, 'nothing sent');
  page.count.value = '2';
  await page.create.fire('submit');
  assert.match(page.createError.textContent, /does not allow rooms/);
  assert.equal(page.createError.hidden, false);
  assert.equal(page.made.hidden, true);
});

test('a typed code goes to the room; a wrong or unknown one is refused next to the field', async () => {
  const page = section();
  // The room's page answers (HTML, not JSON): 404 for no room, 200 with the join form for a non-member.
  const parts = browser([[404, null], [200, null]]);
  createTogether(page.root, parts);
  page.code.value = 'k7m2q0';
  await page.join.fire('submit');
  assert.match(page.joinError.textContent, /no 0, 1, I, L or O/);
  assert.equal(parts.requests.length, 0);
  page.code.value = 'zzz zzz';
  await page.join.fire('submit');
  // The page, never the room's state (GET /api/v1/rooms/{code} refuses a non-member with a logged 403).
  assert.equal(parts.requests[0].url, '/r/ZZZZZZ');
  assert.match(page.joinError.textContent, /No room has that code/);
  assert.deepEqual(parts.assigned, []);
  page.code.value = 'k7m-2qx';
  await page.join.fire('submit');
  assert.deepEqual(parts.assigned, ['/r/K7M2QX']);
  assert.equal(parts.requests[1].url, '/r/K7M2QX');
  assert.equal(page.joinError.hidden, true);
});
