// `node --test Tests/js/`: the detail header's three rules (Public/js/header.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { headerState, BAR_FADE_PX, PARALLAX_RATIO } from '../../Public/js/header.js';

const header = { top: 80, height: 400 };
const bar = { top: 56, height: 44 };
const goneAt = header.top + header.height - bar.top - bar.height;

test('pulled down at the top, the photo stretches to fill the gap; no bar', () => {
  const state = headerState(-100, header, bar);
  assert.equal(state.stretch, 1.25);
  assert.equal(state.shift, 0);
  assert.equal(state.barAlpha, 0);
  assert.equal(state.riseOffset, bar.height);
});

test('at rest and while the photo is still well in view: no stretch, no bar', () => {
  for (const scroll of [0, 100, goneAt - BAR_FADE_PX]) {
    const state = headerState(scroll, header, bar);
    assert.equal(state.stretch, 1);
    assert.equal(state.shift, scroll * PARALLAX_RATIO);
    assert.equal(state.barAlpha, 0, `at ${scroll}`);
  }
});

test('the bar fades in and its title rises over the last BAR_FADE_PX', () => {
  const half = headerState(goneAt - BAR_FADE_PX / 2, header, bar);
  assert.equal(half.barAlpha, 0.5);
  assert.equal(half.riseOffset, bar.height / 2);
});

test('once the photo is gone the bar stays, however far one scrolls', () => {
  for (const scroll of [goneAt, goneAt + 1, 10000]) {
    const state = headerState(scroll, header, bar);
    assert.equal(state.barAlpha, 1);
    assert.equal(state.riseOffset, 0);
  }
});
