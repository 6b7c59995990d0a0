// `node --test Tests/js/`: the shared status line (Public/js/toast.js) on a fake element and a fake clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createToast, toastMs } from '../../Public/js/toast.js';

/** Timers that run only when told: `advance(ms)` fires what is due. */
function fakeTimers() {
  let now = 0;
  let nextId = 1;
  const pending = new Map();
  return {
    setTimeout(callback, ms) {
      pending.set(nextId, { at: now + ms, callback });
      return nextId++;
    },
    clearTimeout(id) {
      pending.delete(id);
    },
    advance(ms) {
      now += ms;
      for (const [id, timer] of [...pending]) {
        if (timer.at <= now) {
          pending.delete(id);
          timer.callback();
        }
      }
    },
  };
}

test('a message shows at once and clears after toastMs', () => {
  const element = { textContent: '' };
  const timers = fakeTimers();
  const say = createToast(element, timers);
  say('Offline: nothing changed.');
  assert.equal(element.textContent, 'Offline: nothing changed.');
  timers.advance(toastMs - 1);
  assert.equal(element.textContent, 'Offline: nothing changed.');
  timers.advance(1);
  assert.equal(element.textContent, '');
});

test('a newer message replaces the old one and gets the whole time', () => {
  const element = { textContent: '' };
  const timers = fakeTimers();
  const say = createToast(element, timers, 100);
  say('first');
  timers.advance(60);
  say('second');
  timers.advance(60);
  assert.equal(element.textContent, 'second');
  timers.advance(40);
  assert.equal(element.textContent, '');
});
