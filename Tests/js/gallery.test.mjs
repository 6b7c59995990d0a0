// The gallery's pure rules (Public/js/gallery.js) and the owner form's image list (owner.js).
import assert from 'node:assert/strict';
import test from 'node:test';

import { EDGE_PAGE_FRACTION, clampPan, edgeOverflow, pageAfterEdgeDrag } from '../../Public/js/gallery.js';
import { deckIndex, imageLines, movedItem, movedOrder, refusalReason } from '../../Public/js/owner.js';

const box = { width: 400, height: 300 };

test('a zoomed photo pans at most (scale - 1) x half its box each way', () => {
  assert.deepEqual(clampPan(500, -500, 2, box), { scale: 2, x: 200, y: -150 });
  assert.deepEqual(clampPan(50, 20, 2, box), { scale: 2, x: 50, y: 20 });
  assert.deepEqual(clampPan(30, 30, 1, box), { scale: 1, x: 0, y: 0 });
});

test('the overflow past an edge is signed: negative past the right edge, 0 within', () => {
  assert.equal(edgeOverflow(-250, 2, 400), -50);
  assert.equal(edgeOverflow(260, 2, 400), 60);
  assert.equal(edgeOverflow(-199, 2, 400), 0);
});

test('a drag past the edge pages only beyond the fraction, and never out of the gallery', () => {
  const beyond = 400 * EDGE_PAGE_FRACTION + 1;
  const within = 400 * EDGE_PAGE_FRACTION - 1;
  assert.equal(pageAfterEdgeDrag(1, -beyond, 400, 3), 2);
  assert.equal(pageAfterEdgeDrag(1, beyond, 400, 3), 0);
  assert.equal(pageAfterEdgeDrag(1, -within, 400, 3), 1);
  assert.equal(pageAfterEdgeDrag(2, -beyond, 400, 3), 2);
  assert.equal(pageAfterEdgeDrag(0, beyond, 400, 3), 0);
});

test('the image list is one address per line; blank lines and spaces go', () => {
  assert.deepEqual(imageLines(''), []);
  assert.deepEqual(imageLines(' /images/a.png \n\n/images/b.png'), ['/images/a.png', '/images/b.png']);
});

test('an image moves within the list; the others keep their order', () => {
  assert.deepEqual(movedItem(['a', 'b', 'c'], 2, 0), ['c', 'a', 'b']);
  assert.deepEqual(movedItem(['a', 'b', 'c'], 0, 1), ['b', 'a', 'c']);
});

test('a dragged card lands in deck order around archived cards, as moveCard moves it', () => {
  // 2 is archived (listed apart): 4 dropped before 3 goes between 2 and 3, not before 2.
  const order = ['1', '2', '3', '4'];
  assert.equal(deckIndex(order, '4', '3', '1'), 2);
  assert.deepEqual(movedOrder(order, '4', 2), ['1', '2', '4', '3']);
  // Dropped last, after 4: after 4's place.
  assert.equal(deckIndex(order, '1', null, '4'), 3);
  assert.deepEqual(movedOrder(order, '1', 3), ['2', '3', '4', '1']);
  assert.deepEqual(movedOrder(order, '3', 99), ['1', '2', '4', '3']);
});

test('an upload refused for its size says so in megabytes, not bytes', () => {
  assert.equal(refusalReason(413, { error: { message: 'The body is larger than 8388608 bytes.' } }),
    'That image is larger than 8 MB.');
  assert.equal(refusalReason(422, { error: { message: 'Upload a PNG, JPEG, WebP or GIF image.' } }),
    'Upload a PNG, JPEG, WebP or GIF image.');
});
