// `node --test Tests/js/`: every script the server ships parses as the module the browser loads it as
// (`node --check` alone reads a .js file as CommonJS, where a syntax error in module code can pass),
// and no line in Public/js is over 110 characters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const folder = new URL('../../Public/js/', import.meta.url);
const scripts = readdirSync(folder).filter((name) => name.endsWith('.js'));

test('Public/js has the scripts the pages load', () => {
  assert.ok(scripts.includes('deck.js') && scripts.includes('physics.js'), scripts.join(', '));
});

for (const name of scripts) {
  test(`${name} parses as an ES module`, () => {
    const path = new URL(name, folder).pathname;
    const run = spawnSync(process.execPath, ['--experimental-default-type=module', '--check', path]);
    assert.equal(run.status, 0, run.stderr.toString());
  });

  test(`${name} has no line over 110 characters`, () => {
    const lines = readFileSync(new URL(name, folder), 'utf8').split('\n');
    const long = lines.flatMap((line, index) => (line.length > 110 ? [`${index + 1}: ${line.length}`] : []));
    assert.deepEqual(long, []);
  });
}
