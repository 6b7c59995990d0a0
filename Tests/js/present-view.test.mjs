// `node --test Tests/js/`: present-view.js shows what PresentView.swift does, on the report in
// Tests/Fixtures/present-view.json (written and checked by PresentViewParityTests.swift): the cards
// and counts of the big screen, hidden and revealed, string for string.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { presentedCards, presentedStats } from '../../Public/js/present-view.js';

const fixture = JSON.parse(readFileSync(new URL('../Fixtures/present-view.json', import.meta.url), 'utf8'));
const { report, expected } = fixture;

test('hidden: the cards in deck order with their votes, decided or not, and no shares', () => {
  assert.deepEqual(presentedCards(report, false), expected.hidden.cards);
  assert.deepEqual(presentedStats(report, false), expected.hidden.stats);
  assert.ok(presentedCards(report, false).every((card) => card.share === '' && card.verdict === ''));
});

test('revealed: the cards ranked with their shares and verdicts', () => {
  assert.deepEqual(presentedCards(report, true), expected.revealed.cards);
  assert.deepEqual(presentedStats(report, true), expected.revealed.stats);
});
