// Pure helpers of the live results page: they turn the results JSON (GET /api/v1/decks/{deck}/results)
// into the numbers and strings the server-rendered page shows (Pages/ResultsView.swift), so an update
// looks exactly like a reload. No DOM here.

/** Height of one chart row, CSS px (ResultsView.rowHeight). */
export const ROW_HEIGHT = 46;
/** Fraction of the chart's width a title may take (ResultsView.labelShare). */
export const LABEL_SHARE = 0.8;
/** Longest title shown in the chart, in characters (ResultsView.labelCharacters). */
export const LABEL_CHARACTERS = 30;
/** Narrowest interval bar, a fraction of the chart's width (ResultsView.minIntervalWidth). */
export const MIN_INTERVAL_WIDTH = 0.004;
/** Opacity of a bar at a 0% like rate; it rises linearly to 1 at 100% (ResultsView.barMinOpacity). */
export const BAR_MIN_OPACITY = 0.35;
/** Cards drawn in the chart at most. */
export const CHART_CARDS = 12;

const LIKE_DIRECTIONS = new Set(["right", "up", "up_right"]);

/** Whether a direction counts as a like (right, up, up_right), as ResultsReport.isLike. */
export function isLike(direction) {
  return LIKE_DIRECTIONS.has(direction);
}

/** A fraction 0…1 as an SVG length in percent, one decimal: 0.5 → "50.0%". */
export function percent(fraction) {
  return `${(fraction * 100).toFixed(1)}%`;
}

/** A like rate as the page prints it: 0.456 → "46%". */
export function ratePercent(rate) {
  return `${Math.round(rate * 100)}%`;
}

/** The median decision time in seconds with one decimal, or "–" without data. */
export function medianText(milliseconds) {
  if (milliseconds === null || milliseconds === undefined) {
    return "–";
  }
  return `${(milliseconds / 1000).toFixed(1)} s`;
}

/** A chart label: the title, or its first LABEL_CHARACTERS - 1 characters, trailing spaces cut, and "…". */
export function chartLabel(title) {
  const characters = Array.from(title);
  if (characters.length <= LABEL_CHARACTERS) {
    return title;
  }
  return characters.slice(0, LABEL_CHARACTERS - 1).join("").trimEnd() + "…";
}

/** The six headline numbers, as strings keyed like the page's data-stat attributes. */
export function headlineStats(report) {
  let likes = 0;
  let passes = 0;
  for (const [direction, count] of Object.entries(report.directionTotals || {})) {
    if (isLike(direction)) {
      likes += count;
    } else {
      passes += count;
    }
  }
  const rejected = Object.values(report.rejections || {}).reduce((sum, count) => sum + count, 0);
  return {
    participants: String(report.participants),
    swipes: String(report.swipes),
    likes: String(likes),
    passes: String(passes),
    median: medianText(report.medianDecisionMs),
    suspect: String(report.suspectExcluded),
    allSwipes: String(report.allSwipes),
    excludedParticipants: String(report.excludedParticipants),
    excludedSwipes: String(report.excludedSwipes),
    rejectedTotal: String(rejected),
  };
}

/** A bar's fill opacity for a like rate, two decimals: every bar on one colour scale. */
export function barOpacity(rate) {
  return (BAR_MIN_OPACITY + (1 - BAR_MIN_OPACITY) * rate).toFixed(2);
}

/** Geometry of the chart's bars (cards with at least one counted swipe, at most CHART_CARDS). */
export function chartBars(cards) {
  const shown = cards.filter((card) => card.total > 0).slice(0, CHART_CARDS);
  return shown.map((card, index) => {
    const y = index * ROW_HEIGHT;
    const width = Math.max(MIN_INTERVAL_WIDTH, card.wilson.upper - card.wilson.lower);
    return {
      title: card.title,
      label: chartLabel(card.title),
      y: y,
      textY: y + 15,
      barY: y + 22,
      intervalY: y + 28,
      fillWidth: percent(card.likeRate),
      fillOpacity: barOpacity(card.likeRate),
      intervalX: percent(card.wilson.lower),
      intervalWidth: percent(width),
      value: ratePercent(card.likeRate),
    };
  });
}

/** One ranked-table row's cells as strings, kinds in `kindKeys` order. */
export function tableCells(card, kindKeys) {
  const counts = card.counts || {};
  const left = counts.left || 0;
  const right = counts.right || 0;
  return {
    rank: String(card.rank),
    likes: String(card.likes),
    total: String(card.total),
    rate: card.total > 0 ? ratePercent(card.likeRate) : "–",
    interval: `${card.wilson.lower.toFixed(2)}–${card.wilson.upper.toFixed(2)}`,
    left: String(left),
    other: String(card.total - left - right),
    kinds: kindKeys.map((key) => String((card.kinds || {})[key] || 0)),
  };
}

/**
 * Rejection codes and counts, sorted by code, each with the reason people read (`reasons`: code →
 * sentence, from the page; an unknown code reads as itself).
 */
export function rejectionList(rejections, reasons = {}) {
  return Object.entries(rejections || {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([code, count]) => ({ code: code, reason: reasons[code] || code, count: String(count) }));
}
