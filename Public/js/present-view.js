// What the big screen shows of a deck's results: a transliteration of PresentView.swift, redrawn by
// present.js from the live results. Hidden, the cards in the deck's order with their votes and
// whether they are decided; revealed, in the ranking with their share of likes and verdicts.

import { decisionText, percent, ratePercent, verdictText, votesText } from './results-view.js';

/** A verdict as the hidden screen words it: as revealed, less the side (PresentView.hiddenWord). */
function hiddenWord(state) {
  if (state === 'yes' || state === 'no') {
    return 'Decided';
  }
  if (state === 'settled') {
    return 'Settled';
  }
  return 'Deciding';
}

/** The active cards as the screen lists them (PresentView.presentedCards). */
export function presentedCards(report, revealed) {
  const active = report.cards.filter((card) => !card.archived);
  const ordered = revealed ? active : [...active].sort((a, b) => a.cardId - b.cardId);
  return ordered.map((card) => {
    const hiddenState = card.state ? hiddenWord(card.state) : '';
    return {
      id: card.cardId,
      title: card.title,
      votes: votesText(card.total),
      share: revealed && card.total > 0 ? ratePercent(card.likeRate) : '',
      width: percent(revealed ? card.likeRate : 0),
      state: revealed ? verdictText(card) : hiddenState,
      verdict: revealed ? card.state || '' : '',
    };
  });
}

/** The counts the screen shows in both states (PresentView.presentedStats). */
export function presentedStats(report, revealed) {
  let decision = '';
  if (report.decision) {
    const d = report.decision;
    decision = revealed ? decisionText(d) : `${d.decidedCards} of ${d.activeCards} cards decided.`;
  }
  return {
    people: report.participants === 1 ? '1 person' : `${report.participants} people`,
    decisions: report.swipes === 1 ? '1 decision' : `${report.swipes} decisions`,
    decision: decision,
  };
}

/**
 * How the big screen lays out `count` cards (PresentView.density on the server): 'one' column up
 * to 4, 'two' up to 10, then 'three'.
 */
export function presentDensity(count) {
  if (count <= 4) {
    return 'one';
  }
  return count <= 10 ? 'two' : 'three';
}

/**
 * The pace a screen shows (DeckStage.paceKey on the server): '' self-paced; host-paced, the
 * presenter's step and card and whether it is open.
 */
export function paceKey(stage) {
  if (!stage.paced) {
    return '';
  }
  const card = typeof stage.card === 'number' ? String(stage.card) : '';
  return `${stage.step}|${card}|${stage.cardOpen}`;
}

/**
 * Whether the deck's stage as the server answers it (`DeckStage`: open, revealed, revealIn, the
 * pace) is not the one a screen was served with `elapsed` seconds ago (`open`, `revealed`,
 * `revealIn`: a reveal timer's seconds then, or null; `pace`: its paceKey): it opened or closed,
 * the results showed or hid, the presenter's card moved or closed, or a timer started, ended or
 * was started anew (more than 2 s off the one counting here).
 */
export function stageChanged(stage, open, revealed, revealIn, elapsed, pace) {
  if (stage.open !== open || stage.revealed !== revealed || paceKey(stage) !== pace) {
    return true;
  }
  const timed = typeof stage.revealIn === 'number';
  if (timed !== (revealIn !== null)) {
    return true;
  }
  return timed && Math.abs(revealIn - elapsed - stage.revealIn) > 2;
}

/**
 * What a key does on the big screen: 'results' (Reveal or Hide), 'voting' (Lock or Unlock),
 * 'fullscreen', 'counts' (hide or show how many joined and decided), 'next' (host-paced: the next
 * card), or '' (nothing). Letters in either case; a key with Ctrl, Alt or Meta is the browser's.
 */
export function presentKeyAction(key, modified) {
  if (modified) {
    return '';
  }
  const actions = { r: 'results', l: 'voting', f: 'fullscreen', c: 'counts', n: 'next' };
  return actions[key.toLowerCase()] || '';
}
