// The live results page's pure rules (Public/js/results-view.js), which mirror ResultsView.swift:
// a bar's certainty is visible, unswiped cards say so, archived cards are ranked apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  archivedCards, certaintyText, chartBars, chartLabel, decisionText, fixedOne, headlineStats, medianText, percent,
  rangeText, rankedCards, tableCells, verdictText, votesText,
} from '../../Public/js/results-view.js';

function card(id, likes, total, lower, upper, archived = false) {
  return {
    cardId: id, title: `Card ${id}`, likes: likes, total: total, likeRate: total > 0 ? likes / total : 0,
    wilson: { lower: lower, upper: upper }, archived: archived, counts: {}, kinds: {},
  };
}

test('one vote draws a short solid bar and a long pale one, never a full bar', () => {
  const [bar] = chartBars([card(1, 1, 1, 0.2066, 1)]);
  assert.equal(bar.sureWidth, '20.7%');
  assert.equal(bar.rangeX, '20.7%');
  assert.equal(bar.rangeWidth, '79.3%');
  assert.equal(bar.value, '100% · 1 vote');
});

test('unswiped and archived cards draw no bar', () => {
  assert.deepEqual(chartBars([card(1, 0, 0, 0, 1), card(2, 3, 4, 0.3, 0.95, true)]), []);
});

test('rates and intervals in words', () => {
  assert.equal(rangeText(card(1, 0, 0, 0, 1)), '–');
  assert.equal(rangeText(card(1, 1, 1, 0.2065, 1)), 'between 21% and 100%');
  assert.equal(certaintyText(card(1, 1, 1, 0.2065, 1)), 'too few votes to tell');
  assert.equal(certaintyText(card(1, 60, 100, 0.5, 0.69)), 'fairly sure');
  assert.equal(certaintyText(card(1, 600, 1000, 0.57, 0.63)), 'sure');
  assert.equal(certaintyText(card(1, 0, 0, 0, 1)), '');
  // A decided card's verdict is its word: never "unsure · Decided: yes" or "too few votes to tell · Settled".
  for (const state of ['yes', 'no', 'settled']) {
    assert.equal(certaintyText({ ...card(1, 1, 2, 0.09, 0.91), state: state }), '');
  }
  assert.equal(certaintyText({ ...card(1, 1, 2, 0.09, 0.91), state: 'deciding' }), 'too few votes to tell');
  assert.equal(votesText(1), '1 vote');
  assert.equal(votesText(2), '2 votes');
});

test('archived cards are listed apart; the ranking numbers the active ones 1, 2, …', () => {
  const cards = [card(1, 5, 5, 0.5, 1), card(2, 4, 5, 0.4, 0.9, true), card(3, 0, 0, 0, 1)];
  const ranked = rankedCards(cards);
  assert.deepEqual(ranked.map((c) => [c.cardId, c.place]), [[1, 1], [3, 2]]);
  assert.deepEqual(archivedCards(cards).map((c) => c.cardId), [2]);
  assert.deepEqual(tableCells(ranked[1]), {
    rank: '2', votes: '0', likes: 'no votes yet', rate: '–', range: '–', certainty: '', verdict: '', state: '', rooms: '',
  });
  assert.equal(tableCells(ranked[0]).likes, '5 of 5');
});

test('counted and not counted add up to every live swipe, left-out people included', () => {
  const report = {
    participants: 3, swipes: 5, allSwipes: 8, excludedSwipes: 4, suspectExcluded: 2, directionTotals: {}, cards: [],
  };
  assert.equal(headlineStats(report).notCounted, '7');
});

test('one participant is "participant"', () => {
  const report = { participants: 1, swipes: 1, directionTotals: { right: 1 }, cards: [], rejections: {} };
  assert.equal(headlineStats(report).participantsLabel, 'participant');
  assert.equal(headlineStats({ ...report, participants: 2 }).participantsLabel, 'participants');
});

test('one decimal as printf prints it: an exact tie goes to the even digit (6.25 → 6.2, 6.75 → 6.8)', () => {
  assert.equal(fixedOne(6.25), '6.2');
  assert.equal(fixedOne(6.75), '6.8');
  assert.equal(fixedOne(-6.25), '-6.2');
  assert.equal(fixedOne(6.26), '6.3');
  assert.equal(fixedOne(0.05), '0.1');
  assert.equal(percent(0.0625), '6.2%');
  assert.equal(medianText(1250), '1.2 s');
  assert.equal(medianText(null), '–');
});

test('chart labels count grapheme clusters, as Swift does', () => {
  assert.equal(chartLabel('Exactly twenty-two ch.'), 'Exactly twenty-two ch.');
  assert.equal(chartLabel('abcdefghijklmnopqrst uvw'), 'abcdefghijklmnopqrst…');
  assert.equal(chartLabel('🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹'), '🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹🇵🇹');
});

test('a card\'s stop-rule state in words; none without a rule', () => {
  assert.equal(verdictText({ state: 'yes' }), 'Decided: yes');
  assert.equal(verdictText({ state: 'no' }), 'Decided: no');
  assert.equal(verdictText({ state: 'settled' }), 'Settled');
  assert.equal(verdictText({ state: 'deciding', votesNeeded: 1 }), 'Deciding · needs about 1 more vote');
  assert.equal(verdictText({ state: 'deciding', votesNeeded: 12 }), 'Deciding · needs about 12 more votes');
  assert.equal(verdictText({ state: 'deciding' }), 'Deciding');
  assert.equal(verdictText({}), '');
});

test('the deck decided, by every card or by the top k; deciding until then', () => {
  const decision = { decidedCards: 2, activeCards: 3, deckDecided: false };
  assert.equal(decisionText(decision), 'Deciding: 2 of 3 cards decided.');
  assert.equal(
    decisionText({ ...decision, decidedCards: 3, deckDecided: true }),
    'Decided: every card has its verdict (3 of 3 cards decided).',
  );
  assert.equal(
    decisionText({ ...decision, deckDecided: true, topKnown: [4, 9] }),
    'Decided: the top 2 are known (2 of 3 cards decided).',
  );
  assert.equal(decisionText(undefined), '');
  assert.equal(headlineStats({ participants: 1, swipes: 0, cards: [], decision: decision }).decision,
    'Deciding: 2 of 3 cards decided.');
});
