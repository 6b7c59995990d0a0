// The gallery's pure rules (Public/js/gallery.js) and the owner form's image list (owner.js).
import assert from 'node:assert/strict';
import test from 'node:test';

import { EDGE_PAGE_FRACTION, clampPan, edgeOverflow, pageAfterEdgeDrag } from '../../Public/js/gallery.js';
import { withImageAdded } from '../../Public/js/owner.js';

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

test('an uploaded image is added on its own line; blank lines and spaces go', () => {
  assert.equal(withImageAdded('', '/images/a.png'), '/images/a.png');
  assert.equal(withImageAdded(' /images/a.png \n\n', '/images/b.png'), '/images/a.png\n/images/b.png');
});
