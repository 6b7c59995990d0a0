// `node --test Tests/js/`: present-view.js shows what PresentView.swift does, on the report in
// Tests/Fixtures/present-view.json (written and checked by PresentViewParityTests.swift): the cards
// and counts of the big screen, hidden and revealed, string for string.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { paceKey, presentDensity, presentKeyAction, presentedCards, presentedStats, stageChanged } from '../../Public/js/present-view.js';

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

test('stageChanged: served again when the deck opens or closes, the results show or hide, a timer starts, ends or is replaced', () => {
  const open = { open: true, revealed: false };
  assert.equal(stageChanged(open, true, false, null, 5, ''), false);
  assert.equal(stageChanged({ open: false, revealed: false }, true, false, null, 5, ''), true);
  assert.equal(stageChanged({ open: true, revealed: true }, true, false, null, 5, ''), true);
  assert.equal(stageChanged({ open: true, revealed: false, revealIn: 30 }, true, false, null, 5, ''), true);
  assert.equal(stageChanged(open, true, false, 30, 5, ''), true);
  // A timer counting down as served is no change; one started anew elsewhere is.
  assert.equal(stageChanged({ open: true, revealed: false, revealIn: 25 }, true, false, 30, 5, ''), false);
  assert.equal(stageChanged({ open: true, revealed: false, revealIn: 15 }, true, false, 300, 5, ''), true);
});

test('presentDensity: one column up to 4 cards, two up to 10, then three (PresentView.density in Swift)', () => {
  assert.deepEqual([1, 4, 5, 10, 11, 40].map(presentDensity), ['one', 'one', 'two', 'two', 'three', 'three']);
});

test('paceKey and stageChanged: a host-paced screen is served again when the presenter moves on or the card closes', () => {
  const paced = { open: true, revealed: false, paced: true, step: 2, card: 41, cardOpen: true };
  assert.equal(paceKey({ open: true, revealed: false }), '');
  assert.equal(paceKey(paced), '2|41|true');
  assert.equal(paceKey({ ...paced, step: 0, card: null, cardOpen: false }), '0||false');
  assert.equal(stageChanged(paced, true, false, null, 5, '2|41|true'), false);
  assert.equal(stageChanged({ ...paced, step: 3, card: 42 }, true, false, null, 5, '2|41|true'), true);
  assert.equal(stageChanged({ ...paced, cardOpen: false }, true, false, null, 5, '2|41|true'), true);
  assert.equal(stageChanged({ open: true, revealed: false }, true, false, null, 5, '2|41|true'), true);
});

test('presentKeyAction: R, L, F, C and N in either case; other keys and modified ones do nothing', () => {
  assert.equal(presentKeyAction('n', false), 'next');
  assert.equal(presentKeyAction('N', false), 'next');
  assert.equal(presentKeyAction('r', false), 'results');
  assert.equal(presentKeyAction('R', false), 'results');
  assert.equal(presentKeyAction('l', false), 'voting');
  assert.equal(presentKeyAction('f', false), 'fullscreen');
  assert.equal(presentKeyAction('C', false), 'counts');
  assert.equal(presentKeyAction('r', true), '');
  assert.equal(presentKeyAction('x', false), '');
  assert.equal(presentKeyAction('Enter', false), '');
});
