// `node --test Tests/js/`: the owner's live results page redraws κ, α and the flagged count from the
// quality JSON in QualityView's words (issue 39, D5: they stayed as first rendered while the ranking
// updated live).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixedTwo, peopleStats, qualityStats, statisticText } from '../../Public/js/results-view.js';

test('fixedTwo prints as %.2f does: ties at odd eighths to the even hundredth', () => {
  assert.equal(fixedTwo(0.125), '0.12');
  assert.equal(fixedTwo(0.375), '0.38');
  assert.equal(fixedTwo(0.625), '0.62');
  assert.equal(fixedTwo(0.875), '0.88');
  assert.equal(fixedTwo(-0.125), '-0.12');
  assert.equal(fixedTwo(1.625), '1.62');
  assert.equal(fixedTwo(0.25), '0.25');
  assert.equal(fixedTwo(0.3449), '0.34');
  assert.equal(fixedTwo(-0.05), '-0.05');
  assert.equal(fixedTwo(1), '1.00');
});

test('statisticText: nothing yet, a point, a point with its interval', () => {
  assert.equal(statisticText(null, null), 'not enough ratings yet');
  assert.equal(statisticText(undefined, undefined), 'not enough ratings yet');
  assert.equal(statisticText(0.3412, null), '0.34');
  assert.equal(statisticText(0.3412, { lower: -0.1, upper: 0.7 }), '0.34 (95 % interval -0.10 to 0.70)');
});

test('qualityStats: κ, α, known-answer cards and flagged people as the page words them', () => {
  const empty = { knownAnswerCards: 0, participants: [] };
  assert.deepEqual(qualityStats(empty), {
    kappa: 'not enough ratings yet',
    alpha: 'not enough ratings yet',
    knownAnswerCards: '0 known-answer cards',
    flaggedPeople: '0 people',
  });
  const rated = {
    knownAnswerCards: 1,
    fleissKappa: { value: 0.34, cards: 4, raters: 3 },
    fleissKappaInterval: { lower: 0.1, upper: 0.6 },
    krippendorffAlpha: 0.35,
    participants: [{ flagged: true }, { flagged: false }],
  };
  assert.deepEqual(qualityStats(rated), {
    kappa: '0.34 (95 % interval 0.10 to 0.60)',
    alpha: '0.35',
    knownAnswerCards: '1 known-answer card',
    flaggedPeople: '1 person',
  });
});

test('peopleStats: who is counted, flagged and left out; nothing without the owner\'s people', () => {
  assert.deepEqual(peopleStats({}), {});
  assert.deepEqual(peopleStats({ people: { counted: 3, flagged: 1, excluded: 0, groups: [] } }), {
    peopleCounted: '3',
    peopleFlagged: '1',
    peopleExcluded: '0',
  });
});
