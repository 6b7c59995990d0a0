// The big screen's live part: the server sends the deck's results as a Server-Sent Event at once and
// after every change (LiveResults); this script redraws the counts and the cards from it, hidden or
// revealed as the page was served (present-view.js mirrors PresentView.swift), and serves the page
// again when the deck is locked, unlocked, revealed, hidden or timed anywhere; the phone remote shares
// that part. Without JavaScript the page is complete as served and the join instructions never need it.

import { isTyping } from './deck-model.js';
import {
  presentDensity, presentKeyAction, presentedCards, presentedStats, stageChanged,
} from './present-view.js';

const SVG = 'http://www.w3.org/2000/svg';

/** One card's list item, as present.mustache serves it (`current`: the presenter's card id, or ''). */
function cardItem(card, current) {
  const item = document.createElement('li');
  item.className = 'present-card';
  item.classList.toggle('present-current', String(card.id) === current);
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
function updateItem(item, card, current) {
  if (item.dataset.card !== String(card.id)) {
    return false;
  }
  item.classList.toggle('present-current', String(card.id) === current);
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
  const current = root.dataset.current;
  list.dataset.density = presentDensity(cards.length);
  const fits = (card, index) => updateItem(items[index], card, current);
  const same = items.length === cards.length && cards.every(fits);
  if (!same) {
    list.replaceChildren(...cards.map((card) => cardItem(card, current)));
  }
}

const COUNTS_KEY = 'sd-present-counts-hidden';

// The screen now shown: its root and how to stop what it started (its stream and timers).
let shown = null;

/**
 * The presenter's keys (the controls' hint says them): R reveals or hides, L locks or unlocks (each
 * presses the form's button, so the server does it as for a click), F fills the screen, C hides or
 * shows the counts on this screen (kept for the tab). Typing in a field is left alone. Listened to
 * once, for whichever screen is shown.
 */
function listenForKeys() {
  document.addEventListener('keydown', (event) => {
    if (!shown || isTyping(event.target)) {
      return;
    }
    const root = shown.root;
    const action = presentKeyAction(event.key, event.ctrlKey || event.altKey || event.metaKey);
    if (action === 'results' || action === 'voting' || action === 'next') {
      const pairs = { results: ['reveal', 'hide'], voting: ['lock', 'unlock'], next: ['next'] };
      const values = pairs[action];
      const button = root.querySelector(values.map((value) => `button[value="${value}"]`).join(', '));
      button?.click();
    } else if (action === 'fullscreen') {
      toggleFullscreen();
    } else if (action === 'counts') {
      const hidden = root.classList.toggle('counts-hidden');
      sessionStorage.setItem(COUNTS_KEY, hidden ? '1' : '0');
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

/**
 * The page as the server now serves it (`html`, the whole document) in place of the shown one: a
 * projector in full screen stays so, and nothing flashes. A page without a screen (signed out, say)
 * is loaded whole.
 */
function swap(html) {
  const next = new DOMParser().parseFromString(html, 'text/html').querySelector('.present, .remote');
  if (!next) {
    location.reload();
    return;
  }
  shown.stop();
  shown.root.replaceWith(next);
  shown = mount(next);
}

/**
 * The screen ended by the server (`words`: its sentence, such as a revoked presenter link's): said
 * calmly in the screen's place, full screen kept, with nothing more asked.
 */
function end(words) {
  shown.stop();
  const notice = document.createElement('p');
  notice.className = 'present-ended';
  notice.setAttribute('role', 'status');
  notice.textContent = words;
  shown.root.replaceWith(notice);
}

async function refresh() {
  const response = await fetch(location.href, { headers: { Accept: 'text/html' } });
  swap(await response.text());
}

/**
 * Starts one served screen (the big screen, or the remote): the live results, the reveal timer's
 * countdown, the presses sent without leaving the page, the ask for the deck's stage. Returns
 * {root, stop}.
 */
function mount(root) {
  const revealed = root.dataset.revealed === 'true';
  const open = root.dataset.open === 'true';
  const revealIn = root.dataset.revealIn === '' ? null : Number(root.dataset.revealIn);
  const pace = root.dataset.pace || '';
  const cardClosesIn = root.dataset.cardClosesIn ? Number(root.dataset.cardClosesIn) : null;
  const servedAt = Date.now();
  const intervals = [];
  let source = null;
  root.classList.toggle('counts-hidden', sessionStorage.getItem(COUNTS_KEY) === '1');
  if (root.dataset.live && typeof EventSource !== 'undefined') {
    source = new EventSource(root.dataset.live);
    source.addEventListener('results', (event) => {
      draw(root, JSON.parse(event.data), revealed);
    });
  }
  const full = root.querySelector('.present-fullscreen');
  if (full && document.fullscreenEnabled) {
    full.hidden = false;
    full.addEventListener('click', toggleFullscreen);
  }
  // A press is posted here and the screen it answers with (the server's redirect) replaces this one.
  const form = root.querySelector('.present-controls');
  form?.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = new URLSearchParams(new FormData(form, event.submitter));
    try {
      // The attribute: `form.action` is the buttons named "action".
      const response = await fetch(form.getAttribute('action'), { method: 'POST', body });
      swap(await response.text());
    } catch (error) {
      // Not sent (offline): the form as the browser sends it, which says what went wrong.
      form.submit();
    }
  });
  // A reveal timer counts down here; the server reveals when it runs out, and the next ask sees it.
  const countdown = root.querySelector('.present-countdown');
  if (countdown) {
    intervals.push(setInterval(() => {
      countdown.textContent = String(Math.max(0, Math.ceil(revealIn - (Date.now() - servedAt) / 1000)));
    }, 1000));
  }
  // A card's timer counts down here too; the next ask sees its time run out.
  const cardCountdown = root.querySelector('.present-card-countdown');
  if (cardCountdown && cardClosesIn !== null) {
    intervals.push(setInterval(() => {
      const left = Math.ceil(cardClosesIn - (Date.now() - servedAt) / 1000);
      cardCountdown.textContent = String(Math.max(0, left));
    }, 1000));
  }
  // Locked, unlocked, revealed, hidden or timed elsewhere (another window, the remote, the deck's
  // settings, its rule closing it, a timer running out or started anew): the screen is served again
  // as it now is. A failed ask changes nothing.
  intervals.push(setInterval(async () => {
    try {
      const response = await fetch(root.dataset.state, { headers: { Accept: 'application/json' } });
      const stage = await response.json();
      // Refused (the presenter link revoked, the owner signed out): the server's sentence, not an error page.
      if (stage.error) {
        end(stage.error.message);
        return;
      }
      const elapsed = (Date.now() - servedAt) / 1000;
      if (stageChanged(stage, open, revealed, revealIn, elapsed, pace)) {
        await refresh();
      }
    } catch (error) {
      return;
    }
  }, Number(root.dataset.poll)));
  return {
    root,
    stop: () => {
      source?.close();
      intervals.forEach((id) => clearInterval(id));
    },
  };
}

const first = document.querySelector('.present, .remote');
if (first) {
  shown = mount(first);
  listenForKeys();
}
