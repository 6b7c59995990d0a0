import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rootedPath } from '../../Public/js/root.js';

test('root-relative paths go under the root; others stay as they are', () => {
  assert.equal(rootedPath('/', '/api/v1/images'), '/api/v1/images');
  assert.equal(rootedPath('/decks/', '/api/v1/images'), '/decks/api/v1/images');
  assert.equal(rootedPath('/decks/', '/images/ab.png'), '/decks/images/ab.png');
  assert.equal(rootedPath('/decks/', 'https://example.org/x.png'), 'https://example.org/x.png');
  assert.equal(rootedPath('/decks/', '//cdn.example.org/x.png'), '//cdn.example.org/x.png');
  assert.equal(rootedPath('/decks/', ''), '');
});
