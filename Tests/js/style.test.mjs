// `node --test Tests/js/`: every script the server ships parses as the module the browser loads it as
// (`node --check` alone reads a .js file as CommonJS, where a syntax error in module code can pass), and
// Public/js speaks one dialect: lines of at most 110 characters, single quotes (double quotes only around
// a single quote), `===` and `!==` only, one statement per line, one name per declaration, and no
// one-letter name at the top of a file (a module's names are read far from where they are made).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const folder = new URL('../../Public/js/', import.meta.url);
const scripts = readdirSync(folder).filter((name) => name.endsWith('.js'));

/**
 * JavaScript source split into code and the literals in it: `code` has every comment, string, template
 * literal and regular expression literal replaced by spaces (line breaks kept, so line numbers hold), and
 * `strings` lists each string literal as {quote, body, line}. A `/` starts a regular expression after an
 * operator, an opening bracket, a comma, a semicolon or a keyword like `return`, else it divides.
 */
export function scan(source) {
  const code = [];
  const strings = [];
  let line = 1;
  let i = 0;
  const blank = (text) => text.replace(/[^\n]/g, ' ');
  const lastSignificant = () => {
    const before = code.join('').trimEnd();
    const word = /[\w$]+$/.exec(before);
    if (word) {
      return ['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'void', 'yield', 'await'].includes(word[0])
        ? '(' : 'x';
    }
    return before.at(-1) ?? '(';
  };
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    let end = i + 1;
    if (c === '/' && next === '/') {
      end = source.indexOf('\n', i);
      end = end < 0 ? source.length : end;
    } else if (c === '/' && next === '*') {
      end = source.indexOf('*/', i + 2) + 2;
    } else if (c === '\'' || c === '"') {
      end = i + 1;
      while (source[end] !== c) {
        end += source[end] === '\\' ? 2 : 1;
      }
      end += 1;
      strings.push({ quote: c, body: source.slice(i + 1, end - 1), line });
    } else if (c === '`') {
      // Template literals: substitutions are skipped with the text (their code is rarely more than a name).
      end = i + 1;
      let depth = 0;
      while (depth > 0 || source[end] !== '`') {
        if (source[end] === '\\') {
          end += 1;
        } else if (source[end] === '$' && source[end + 1] === '{') {
          depth += 1;
          end += 1;
        } else if (source[end] === '}' && depth > 0) {
          depth -= 1;
        }
        end += 1;
      }
      end += 1;
    } else if (c === '/' && '(,=:[!&|?{};+-*%<>~^'.includes(lastSignificant())) {
      end = i + 1;
      let inClass = false;
      while (inClass || source[end] !== '/') {
        if (source[end] === '\\') {
          end += 1;
        } else if (source[end] === '[') {
          inClass = true;
        } else if (source[end] === ']') {
          inClass = false;
        }
        end += 1;
      }
      end += 1;
      while (/[a-z]/.test(source[end] ?? '')) {
        end += 1;
      }
    }
    const text = source.slice(i, end);
    code.push(end === i + 1 && !'\'"`'.includes(c) && !(c === '/' && text.length > 1) ? c : blank(text));
    line += (text.match(/\n/g) || []).length;
    i = end;
  }
  return { code: code.join(''), strings };
}

/** Each `pattern` match in `code`, as "line: text" (the line's code, trimmed). */
function matchesByLine(code, pattern) {
  const lines = code.split('\n');
  return lines.flatMap((text, index) => (pattern.test(text) ? [`${index + 1}: ${text.trim()}`] : []));
}

/** Lines of `code` with two statements: a `;` followed by more code (a `for (…;…;…)` header aside). */
export function twoStatementLines(code) {
  const withoutForHeaders = code.replace(/\bfor\s*\((?:[^()]|\([^()]*\))*\)/g, (header) => header.replace(/;/g, ' '));
  return matchesByLine(withoutForHeaders, /;\s*[^\s}/]/);
}

/** Declarations that name more than one thing (`let a = 0, b = 1;`): a comma outside any bracket. */
export function commaDeclarations(code) {
  const found = [];
  for (const match of code.matchAll(/\b(?:const|let|var)\s/g)) {
    let depth = 0;
    for (let i = match.index + match[0].length; i < code.length; i++) {
      const c = code[i];
      if ('([{'.includes(c)) {
        depth += 1;
      } else if (')]}'.includes(c)) {
        depth -= 1;
        if (depth < 0) {
          break;
        }
      } else if (depth === 0 && c === ';') {
        break;
      } else if (depth === 0 && c === ',') {
        const line = code.slice(0, match.index).split('\n').length;
        found.push(`${line}: ${code.slice(match.index, i + 1).trim()}`);
        break;
      } else if (depth === 0 && c === '\n' && !/[=,([{+\-*/?:&|]\s*$/.test(code.slice(match.index, i))) {
        // The declaration ended without a semicolon on its own line.
        break;
      }
    }
  }
  return found;
}

/** Names of one letter declared at the top of a file (not indented). */
export function oneLetterTopLevelNames(code) {
  return matchesByLine(code, /^(?:export\s+)?(?:const|let|var|function\*?|class)\s+[A-Za-z_$](?![\w$])/);
}

test('Public/js has the scripts the pages load', () => {
  assert.ok(scripts.includes('deck.js') && scripts.includes('physics.js'), scripts.join(', '));
});

test('the scanner and the checks catch what they are for', () => {
  const sample = [
    'const a = 1, b = 2;',
    'let x = "text"; let y = 2;',
    'if (x == 1 && y != 2) {}',
    'const ok = /a"b\'c/.test(\'it\\\'s\') ? "it\'s" : `t ${1 == 1}`; // a == b; "c"',
    'for (let i = 0; i < 2; i++) {}',
    '  const inner = [1, 2], other = 3;',
    'const split = f(1, 2) / 2;',
    'const $ = (selector) => document.querySelector(selector);',
  ].join('\n');
  const { code, strings } = scan(sample);
  assert.deepEqual(strings.filter((s) => s.quote === '"').map((s) => s.body), ['text', 'it\'s']);
  assert.deepEqual(matchesByLine(code, /[^=!<>]==(?!=)|!=(?!=)/).map((l) => l.split(':')[0]), ['3']);
  assert.deepEqual(twoStatementLines(code).map((l) => l.split(':')[0]), ['2']);
  assert.deepEqual(commaDeclarations(code).map((l) => l.split(':')[0]), ['1', '6']);
  assert.deepEqual(oneLetterTopLevelNames(code).map((l) => l.split(':')[0]), ['1', '2', '8']);
});

for (const name of scripts) {
  const source = readFileSync(new URL(name, folder), 'utf8');
  const { code, strings } = scan(source);

  test(`${name} parses as an ES module`, () => {
    const path = new URL(name, folder).pathname;
    const run = spawnSync(process.execPath, ['--experimental-default-type=module', '--check', path]);
    assert.equal(run.status, 0, run.stderr.toString());
  });

  test(`${name} has no line over 110 characters`, () => {
    const lines = source.split('\n');
    const long = lines.flatMap((line, index) => (line.length > 110 ? [`${index + 1}: ${line.length}`] : []));
    assert.deepEqual(long, []);
  });

  test(`${name} quotes strings with single quotes`, () => {
    const doubled = strings.filter((s) => s.quote === '"' && !s.body.includes('\''));
    assert.deepEqual(doubled.map((s) => `${s.line}: "${s.body}"`), []);
  });

  test(`${name} compares with === and !== only`, () => {
    assert.deepEqual(matchesByLine(code, /[^=!<>]==(?!=)|!=(?!=)/), []);
  });

  test(`${name} has one statement per line and one name per declaration`, () => {
    assert.deepEqual(twoStatementLines(code), []);
    assert.deepEqual(commaDeclarations(code), []);
  });

  test(`${name} has no one-letter name at its top level`, () => {
    assert.deepEqual(oneLetterTopLevelNames(code), []);
  });
}
