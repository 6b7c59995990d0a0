// Pure helpers of the live results page: they turn the results JSON (GET /api/v1/decks/{deck}/results)
// into the numbers and strings the server-rendered page shows (Pages/ResultsView.swift), so an update
// looks exactly like a reload. No DOM here.

/** Height of one chart row, CSS px (ResultsView.rowHeight). */
export const ROW_HEIGHT = 46;
/** Fraction of the chart's width a title may take (ResultsView.labelShare). */
export const LABEL_SHARE = 0.52;
/** Longest title shown in the chart, in characters (ResultsView.labelCharacters). */
export const LABEL_CHARACTERS = 22;
/** Narrowest interval bar, a fraction of the chart's width (ResultsView.minIntervalWidth). */
export const MIN_INTERVAL_WIDTH = 0.004;
/** Cards drawn in the chart at most. */
export const CHART_CARDS = 12;
/** Width of the mark at a bar's observed rate, a fraction of the chart's width (ResultsView.markWidth). */
export const MARK_WIDTH = 0.006;

const LIKE_DIRECTIONS = new Set(['right', 'up', 'up_right']);

/** Whether a direction counts as a like (right, up, up_right), as ResultsReport.isLike. */
export function isLike(direction) {
  return LIKE_DIRECTIONS.has(direction);
}

/**
 * `value` with one decimal as Swift's String(format: "%.1f") prints it: the decimal nearest the exact
 * binary value, an exact tie to the even digit. toFixed breaks a tie upwards instead; the only doubles on
 * a tie at one decimal end in .25 or .75 (a tenth's half is dyadic only there), and .75 goes up either way,
 * so .25 is the one case to round down (6.25 → '6.2').
 */
export function fixedOne(value) {
  const magnitude = Math.abs(value);
  const whole = Math.floor(magnitude);
  if (magnitude - whole === 0.25) {
    return `${value < 0 ? '-' : ''}${whole}.2`;
  }
  return value.toFixed(1);
}

/** A fraction 0…1 as an SVG length in percent, one decimal: 0.5 → '50.0%' (ResultsView.percent). */
export function percent(fraction) {
  return `${fixedOne(fraction * 100)}%`;
}

/** A like rate as the page prints it: 0.456 → '46%'. */
export function ratePercent(rate) {
  return `${Math.round(rate * 100)}%`;
}

/** The median decision time in seconds with one decimal, or '–' without data. */
export function medianText(milliseconds) {
  if (milliseconds === null || milliseconds === undefined) {
    return '–';
  }
  return `${fixedOne(milliseconds / 1000)} s`;
}

/** Splits text into grapheme clusters; null in browsers without Intl.Segmenter (Firefox before 125). */
const graphemeSegmenter = typeof Intl.Segmenter === 'function'
  ? new Intl.Segmenter(undefined, { granularity: 'grapheme' })
  : null;

/**
 * The characters of `text` as Swift counts them: grapheme clusters (a flag or a family emoji is one);
 * code points where the browser cannot segment (a long emoji title may then cut a little earlier).
 */
function graphemes(text) {
  if (graphemeSegmenter === null) {
    return Array.from(text);
  }
  return Array.from(graphemeSegmenter.segment(text), (part) => part.segment);
}

/**
 * A chart label (ResultsView.label): the title, or its first LABEL_CHARACTERS - 1 characters (grapheme
 * clusters), trailing spaces cut, and '…'.
 */
export function chartLabel(title) {
  const characters = graphemes(title);
  if (characters.length <= LABEL_CHARACTERS) {
    return title;
  }
  return characters.slice(0, LABEL_CHARACTERS - 1).join('').trimEnd() + '…';
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
    participantsLabel: report.participants === 1 ? 'participant' : 'participants',
    swipes: String(report.swipes),
    likes: String(likes),
    passes: String(passes),
    median: medianText(report.medianDecisionMs),
    suspect: String(report.suspectExcluded),
    // Every live swipe is counted or not (ResultsView: notCounted).
    notCounted: String(report.allSwipes - report.swipes + report.excludedSwipes),
    allSwipes: String(report.allSwipes),
    excludedParticipants: String(report.excludedParticipants),
    excludedSwipes: String(report.excludedSwipes),
    rejectedTotal: String(rejected),
    archivedCount: String((report.cards || []).filter((card) => card.archived).length),
    decision: decisionText(report.decision),
  };
}

/** '1 vote', '12 votes'. */
export function votesText(total) {
  return total === 1 ? '1 vote' : `${total} votes`;
}

/** Where the like rate surely lies, in words: 'between 21% and 100%', or '–' without votes. */
export function rangeText(card) {
  if (card.total === 0) {
    return '–';
  }
  return `between ${ratePercent(card.wilson.lower)} and ${ratePercent(card.wilson.upper)}`;
}

/**
 * How sure the ranking is of a card, from the width of its interval (ResultsView.certainty):
 * 'too few votes to tell' at half the scale or wider, 'unsure' from 30 %, 'fairly sure' from
 * 15 %, else 'sure'; '' without votes, and '' for a card the stop rule decided (yes, no or
 * settled): its verdict is the row's word ('unsure' beside 'Decided: yes' would contradict it).
 */
export function certaintyText(card) {
  if (card.total === 0 || isDecided(card.state)) {
    return '';
  }
  const width = card.wilson.upper - card.wilson.lower;
  if (width >= 0.5) {
    return 'too few votes to tell';
  }
  if (width >= 0.3) {
    return 'unsure';
  }
  if (width >= 0.15) {
    return 'fairly sure';
  }
  return 'sure';
}

/**
 * Geometry of the chart's bars (active cards with at least one counted swipe, at most
 * CHART_CARDS): a solid bar up to the interval's lower bound (the share the card surely has),
 * a pale one on to its upper bound (what it may have), a mark at the observed rate. One vote
 * draws a short solid bar and a long pale one, never a full bar.
 */
export function chartBars(cards) {
  const shown = cards.filter((card) => card.total > 0 && !card.archived).slice(0, CHART_CARDS);
  return shown.map((card, index) => {
    const y = index * ROW_HEIGHT;
    const width = Math.max(MIN_INTERVAL_WIDTH, card.wilson.upper - card.wilson.lower);
    return {
      title: card.title,
      label: chartLabel(card.title),
      y: y,
      textY: y + 15,
      barY: y + 22,
      sureWidth: percent(card.wilson.lower),
      rangeX: percent(card.wilson.lower),
      rangeWidth: percent(width),
      markX: percent(Math.min(card.likeRate, 1 - MARK_WIDTH)),
      value: `${ratePercent(card.likeRate)} · ${votesText(card.total)}`,
    };
  });
}

/** The cards ranked apart from the archived ones, each with its place among them (`place`, 1 first). */
export function rankedCards(cards) {
  const active = cards.filter((card) => !card.archived);
  return active.map((card, index) => ({ ...card, place: index + 1 }));
}

/** The archived cards, in their ranking order (listed apart, unranked). */
export function archivedCards(cards) {
  return cards.filter((card) => card.archived);
}

/** Whether a stop-rule state is a verdict (CardVerdict.isDecided): 'yes', 'no' or 'settled'. */
function isDecided(state) {
  return state === 'yes' || state === 'no' || state === 'settled';
}

/**
 * A card's state under the deck's stop rule, in words (ResultsView.verdict): 'Decided: yes',
 * 'Decided: no', 'Settled', 'Deciding · needs about 12 more votes' (or 'Deciding' when the
 * estimate is unknown); '' without a rule.
 */
export function verdictText(card) {
  if (!card.state) {
    return '';
  }
  if (card.state === 'yes') {
    return 'Decided: yes';
  }
  if (card.state === 'no') {
    return 'Decided: no';
  }
  if (card.state === 'settled') {
    return 'Settled';
  }
  if (card.votesNeeded === undefined || card.votesNeeded === null) {
    return 'Deciding';
  }
  const votes = card.votesNeeded === 1 ? '1 more vote' : `${card.votesNeeded} more votes`;
  return `Deciding · needs about ${votes}`;
}

/**
 * Where the deck stands under its stop rule, in words (ResultsView.decision); '' without a rule.
 */
export function decisionText(decision) {
  if (!decision) {
    return '';
  }
  const counted = `${decision.decidedCards} of ${decision.activeCards} cards decided`;
  if (!decision.deckDecided) {
    return `Deciding: ${counted}.`;
  }
  if (decision.topKnown) {
    return `Decided: the top ${decision.topKnown.length} are known (${counted}).`;
  }
  return `Decided: every card has its verdict (${counted}).`;
}

/** One ranked-table row's cells as strings. */
export function tableCells(card) {
  return {
    rank: String(card.place),
    votes: String(card.total),
    likes: card.total > 0 ? `${card.likes} of ${card.total}` : 'no votes yet',
    rate: card.total > 0 ? ratePercent(card.likeRate) : '–',
    range: rangeText(card),
    certainty: certaintyText(card),
    verdict: verdictText(card),
    state: card.state || '',
    rooms: roomsText(card),
  };
}

/** How many match rooms have the card as a match, '' for none (ResultsView.rooms). */
export function roomsText(card) {
  return card.roomMatches > 0 ? String(card.roomMatches) : '';
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

/**
 * `value` with two decimals as Swift's String(format: "%.2f") prints it: the decimal nearest the exact
 * binary value, an exact tie to the even digit. The only doubles on a tie at two decimals are odd
 * eighths (.125, .375, .625, .875: a hundredth's half is dyadic only there); toFixed breaks those
 * upwards, Swift to the even hundredth.
 */
export function fixedTwo(value) {
  const magnitude = Math.abs(value);
  const eighths = magnitude * 8;
  if (!Number.isInteger(eighths) || eighths % 2 === 0) {
    return value.toFixed(2);
  }
  const below = Math.floor(magnitude * 100);
  const hundredths = below % 2 === 0 ? below : below + 1;
  const decimals = String(hundredths % 100).padStart(2, '0');
  return `${value < 0 ? '-' : ''}${Math.floor(hundredths / 100)}.${decimals}`;
}

/** An agreement statistic with its interval, as QualityView.statistic prints it. */
export function statisticText(value, range) {
  if (value === null || value === undefined) {
    return 'not enough ratings yet';
  }
  const point = fixedTwo(value);
  if (range === null || range === undefined) {
    return point;
  }
  return `${point} (95 % interval ${fixedTwo(range.lower)} to ${fixedTwo(range.upper)})`;
}

/**
 * The quality figures of the owner's results page from the quality JSON (GET
 * /api/v1/decks/{deck}/quality), keyed like their data-stat attributes, in QualityView.context's words.
 */
export function qualityStats(quality) {
  const kappa = quality.fleissKappa;
  const flagged = (quality.participants || []).filter((participant) => participant.flagged).length;
  const cards = quality.knownAnswerCards;
  return {
    kappa: statisticText(kappa ? kappa.value : null, quality.fleissKappaInterval),
    alpha: statisticText(quality.krippendorffAlpha, quality.krippendorffAlphaInterval),
    knownAnswerCards: cards === 1 ? '1 known-answer card' : `${cards} known-answer cards`,
    flaggedPeople: flagged === 1 ? '1 person' : `${flagged} people`,
  };
}

/**
 * The owner's "Who is counted" numbers from the results JSON's `people` (the owner's GET
 * /api/v1/decks/{deck}/results), keyed like their data-stat attributes; none without it.
 */
export function peopleStats(report) {
  const people = report.people;
  if (!people) {
    return {};
  }
  return {
    peopleCounted: String(people.counted),
    peopleFlagged: String(people.flagged),
    peopleExcluded: String(people.excluded),
  };
}
