// `node --test Tests/js/`: the API description's Profile schema (Public/openapi.json) names exactly the
// fields Swift encodes in a SwipeProfile (Tests/Fixtures/profiles.json, written by ParityGoldenTests), so
// a field removed from the model (zoneInsetY, classicYRatio) does not stay documented.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const read = (path) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));

test('openapi.json\'s Profile has the properties every encoded profile has, no more, no fewer', () => {
  const documented = Object.keys(read('../../Public/openapi.json').components.schemas.Profile.properties).sort();
  for (const profile of read('../Fixtures/profiles.json')) {
    assert.deepEqual(Object.keys(profile).sort(), documented, profile.name);
  }
});
