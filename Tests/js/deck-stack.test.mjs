// `node --test Tests/js/`: the deck stack's animation loop (Public/js/deck-stack.js's createAnimator) on a
// fake clock whose frames run by hand: it runs until the frame says stop, and a newer animation ends it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAnimator } from '../../Public/js/deck-stack.js';

function manualClock() {
  const frames = [];
  const clock = {
    time: 0,
    now: () => clock.time,
    frame: (callback) => frames.push(callback),
    tick(ms) {
      clock.time += ms;
      frames.shift()();
    },
    frames,
  };
  return clock;
}

test('an animation runs frame by frame with the elapsed time until its frame returns false', () => {
  const clock = manualClock();
  const animate = createAnimator(clock);
  const element = {};
  const seen = [];
  let finished = 0;
  animate(element, (elapsed) => {
    seen.push(elapsed);
    return elapsed < 32;
  }, () => {
    finished++;
  });
  assert.equal(element.anim !== 0, true);
  clock.tick(16);
  clock.tick(16);
  assert.deepEqual(seen, [0, 16, 32]);
  assert.equal(finished, 1);
  assert.equal(element.anim, 0);
  assert.equal(clock.frames.length, 0);
});

test('a newer animation of the same element ends the older one without its ending', () => {
  const clock = manualClock();
  const animate = createAnimator(clock);
  const element = {};
  const ended = [];
  animate(element, () => true, () => ended.push('throw'));
  animate(element, (elapsed) => elapsed < 10, () => ended.push('spring'));
  // The throw's pending frame sees it was replaced and stops; the spring's frame ends the spring.
  clock.tick(5);
  assert.deepEqual(ended, []);
  clock.tick(5);
  assert.deepEqual(ended, ['spring']);
  assert.equal(clock.frames.length, 0);
});
