// The big screen's live part: the server sends the deck's results as a Server-Sent Event at once and
// after every change (LiveResults); this script redraws the counts and the cards from it, hidden or
// revealed as the page was served (present-view.js mirrors PresentView.swift), and serves the page
// again when the deck is locked, unlocked, revealed, hidden or timed anywhere; the phone remote shares
// that part. Without JavaScript the page is complete as served and the join instructions never need it.

import { isTyping } from './deck-model.js';
import { presentKeyAction, presentedCards, presentedStats, stageChanged } from './present-view.js';

const SVG = 'http://www.w3.org/2000/svg';

/** One card's list item, as present.mustache serves it. */
function cardItem(card) {
  const item = document.createElement('li');
  item.className = 'present-card';
  item.dataset.card = String(card.id);
  item.dataset.verdict = card.verdict;
  const title = document.createElement('span');
  title.className = 'present-title';
  title.dir = 'auto';
  title.textContent = card.title;
  const bar = document.createElementNS(SVG, 'svg');
  bar.setAttribute('class', 'present-bar');
  bar.setAttribute('width', '100%');
  bar.setAttribute('height', '24');
  bar.setAttribute('aria-hidden', 'true');
  const track = document.createElementNS(SVG, 'rect');
  track.setAttribute('class', 'present-track');
  track.setAttribute('width', '100%');
  track.setAttribute('height', '100%');
  track.setAttribute('rx', '12');
  const fill = document.createElementNS(SVG, 'rect');
  fill.setAttribute('class', 'present-fill');
  fill.setAttribute('width', card.width);
  fill.setAttribute('height', '100%');
  fill.setAttribute('rx', '12');
  bar.append(track, fill);
  const share = document.createElement('span');
  share.className = 'present-share';
  share.textContent = card.share;
  const votes = document.createElement('span');
  votes.className = 'present-votes';
  votes.textContent = card.votes;
  const verdict = document.createElement('span');
  verdict.className = 'present-verdict';
  verdict.textContent = card.state;
  item.append(title, bar, share, votes, verdict);
  return item;
}

/** Updates an item in place (the bar's width animates), or says it cannot (another card). */
function updateItem(item, card) {
  if (item.dataset.card !== String(card.id)) {
    return false;
  }
  item.dataset.verdict = card.verdict;
  item.querySelector('.present-title').textContent = card.title;
  item.querySelector('.present-fill').setAttribute('width', card.width);
  item.querySelector('.present-share').textContent = card.share;
  item.querySelector('.present-votes').textContent = card.votes;
  item.querySelector('.present-verdict').textContent = card.state;
  return true;
}

/** Redraws the screen from one results report. */
function draw(root, report, revealed) {
  const stats = presentedStats(report, revealed);
  root.querySelector('[data-stat="people"]').textContent = stats.people;
  root.querySelector('[data-stat="decisions"]').textContent = stats.decisions;
  const decision = root.querySelector('[data-stat="decision"]');
  decision.textContent = stats.decision;
  decision.hidden = stats.decision === '';
  const list = root.querySelector('.present-cards');
  const cards = presentedCards(report, revealed);
  const items = [...list.children];
  const same = items.length === cards.length && cards.every((card, index) => updateItem(items[index], card));
  if (!same) {
    list.replaceChildren(...cards.map(cardItem));
  }
}

/**
 * The presenter's keys (the controls' hint says them): R reveals or hides, L locks or unlocks (each
 * presses the form's button, so the server does it as for a click), F fills the screen, C hides or
 * shows the counts on this screen (kept for the tab). Typing in a field is left alone.
 */
function keys(root) {
  const counts = 'sd-present-counts-hidden';
  root.classList.toggle('counts-hidden', sessionStorage.getItem(counts) === '1');
  const full = root.querySelector('.present-fullscreen');
  if (full && document.fullscreenEnabled) {
    full.hidden = false;
    full.addEventListener('click', toggleFullscreen);
  }
  document.addEventListener('keydown', (event) => {
    if (isTyping(event.target)) {
      return;
    }
    const action = presentKeyAction(event.key, event.ctrlKey || event.altKey || event.metaKey);
    if (action === 'results' || action === 'voting') {
      const values = action === 'results' ? ['reveal', 'hide'] : ['lock', 'unlock'];
      const button = root.querySelector(values.map((value) => `button[value="${value}"]`).join(', '));
      button?.click();
    } else if (action === 'fullscreen') {
      toggleFullscreen();
    } else if (action === 'counts') {
      const hidden = root.classList.toggle('counts-hidden');
      sessionStorage.setItem(counts, hidden ? '1' : '0');
    }
  });
}

function toggleFullscreen() {
  // A refusal (no user gesture, a browser's policy) leaves the page as it is: nothing to say.
  if (document.fullscreenElement) {
    document.exitFullscreen().catch(() => null);
  } else {
    document.documentElement.requestFullscreen().catch(() => null);
  }
}

function start() {
  const root = document.querySelector('.present, .remote');
  if (!root) {
    return;
  }
  const revealed = root.dataset.revealed === 'true';
  const open = root.dataset.open === 'true';
  const timing = root.dataset.revealIn !== '';
  if (root.dataset.live && typeof EventSource !== 'undefined') {
    const source = new EventSource(root.dataset.live);
    source.addEventListener('results', (event) => {
      draw(root, JSON.parse(event.data), revealed);
    });
  }
  keys(root);
  // A reveal timer counts down here; the server reveals when it runs out, and the next ask sees it.
  const countdown = root.querySelector('.present-countdown');
  const due = Date.now() + Number(root.dataset.revealIn) * 1000;
  if (countdown) {
    setInterval(() => {
      countdown.textContent = String(Math.max(0, Math.ceil((due - Date.now()) / 1000)));
    }, 1000);
  }
  // Locked, unlocked, revealed, hidden or timed elsewhere (another window, the remote, the deck's
  // settings, its rule closing it, a timer running out): the page is served again as it now is. A
  // failed ask changes nothing.
  setInterval(async () => {
    try {
      const response = await fetch(root.dataset.state, { headers: { Accept: 'application/json' } });
      if (stageChanged(await response.json(), open, revealed, timing)) {
        location.reload();
      }
    } catch (error) {
      return;
    }
  }, Number(root.dataset.poll));
}

start();
