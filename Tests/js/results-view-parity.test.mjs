// `node --test Tests/js/`: results-view.js computes the rows ResultsView.swift does, on the report in
// Tests/Fixtures/results-view.json (written and checked by ResultsViewParityTests.swift): the chart's
// bars, the ranked and archived tables, the headline numbers and the rejections, string for string. A
// change to either side alone fails this test or the Swift one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  ROW_HEIGHT, archivedCards, chartBars, headlineStats, rankedCards, rejectionList, tableCells,
} from '../../Public/js/results-view.js';

const fixture = JSON.parse(readFileSync(new URL('../Fixtures/results-view.json', import.meta.url), 'utf8'));
const { report, reasons, expected } = fixture;

/** A table row as the template names its cells (ResultsView.row), from results-view.js's cells. */
function swiftRow(cells) {
  return {
    rank: Number(cells.rank),
    total: Number(cells.votes),
    likes: cells.likes,
    rate: cells.rate,
    range: cells.range,
    certainty: cells.certainty,
    verdict: cells.verdict,
    rooms: cells.rooms,
  };
}

test('the chart: one bar per voted active card, geometry and labels as ResultsView draws them', () => {
  const bars = chartBars(report.cards).map((bar) => ({
    title: bar.title,
    label: bar.label,
    y: bar.y,
    ty: bar.textY,
    by: bar.barY,
    sw: bar.sureWidth,
    rx: bar.rangeX,
    rw: bar.rangeWidth,
    mx: bar.markX,
    pct: bar.value,
  }));
  assert.deepEqual(bars, expected.bars);
  assert.equal(bars.length * ROW_HEIGHT, expected.chartHeight);
});

test('the ranked table numbers the active cards 1, 2, … with the same cells', () => {
  assert.deepEqual(rankedCards(report.cards).map((card) => swiftRow(tableCells(card))), expected.rows);
});

test('the archived table lists the archived cards with the same cells (no rank)', () => {
  const rows = archivedCards(report.cards).map((card) => swiftRow(tableCells({ ...card, place: 0 })));
  const withoutRank = (row) => ({ ...row, rank: undefined });
  assert.deepEqual(rows.map(withoutRank), expected.archivedRows.map(withoutRank));
});

test('the headline numbers', () => {
  const stats = headlineStats(report);
  const swift = Object.fromEntries(Object.entries(expected.headline).map(([key, value]) => [key, String(value)]));
  const mine = Object.fromEntries(Object.keys(swift).map((key) => [key, stats[key]]));
  assert.deepEqual(mine, swift);
});

test('the rejections, sorted by code, in words, unknown codes as themselves', () => {
  const listed = rejectionList(report.rejections, reasons).map((r) => ({ ...r, count: Number(r.count) }));
  assert.deepEqual(listed, expected.rejections);
});
