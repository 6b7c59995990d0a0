// `node --test Tests/js/`: every curl example in README.md that sends a body with -d (or --data) also
// says `Content-Type: application/json`; the API answers 415 to a JSON body sent as curl's default
// application/x-www-form-urlencoded (issue 39, D3).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The curl commands of the README's sh blocks, each with its backslash-continued lines joined. */
function curlCommands(text) {
  const commands = [];
  const blocks = text.split('```');
  for (let index = 1; index < blocks.length; index += 2) {
    const joined = blocks[index].replace(/\\\n/g, ' ');
    for (const line of joined.split('\n')) {
      if (/(^|[\s($])curl\s/.test(line)) {
        commands.push(line.trim());
      }
    }
  }
  return commands;
}

test('the README has curl examples with a body', () => {
  const withBody = curlCommands(readme).filter((command) => /\s(-d|--data\S*)\s/.test(command));
  assert.ok(withBody.length >= 5, `only ${withBody.length} curl examples with -d`);
});

test('every README curl example that sends a body says it is JSON', () => {
  const missing = curlCommands(readme)
    .filter((command) => /\s(-d|--data\S*)\s/.test(command))
    .filter((command) => !/Content-Type: application\/json/i.test(command));
  assert.deepEqual(missing, []);
});
