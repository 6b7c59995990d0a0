// Live results for the deck's owner: the server sends the results JSON as a Server-Sent Event at
// once and after every change (at most once a second, one computation shared by all watchers);
// this script redraws the numbers, chart, table and rejections from it with textContent and
// createElement only. Without JavaScript the page is complete as served; EventSource reconnects
// by itself, and the 'live' badge shows only while it is connected.

import {
  ROW_HEIGHT, archivedCards, chartBars, headlineStats, peopleStats, qualityStats, rankedCards, rejectionList,
  tableCells,
} from './results-view.js';
import { rooted } from './root.js';

const SVG = 'http://www.w3.org/2000/svg';

/** An SVG element with the given attributes. */
function svgElement(name, attributes) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) {
    element.setAttribute(key, String(value));
  }
  return element;
}

/** An HTML element with a class and optional text. */
function htmlElement(name, className, text) {
  const element = document.createElement(name);
  if (className) {
    element.className = className;
  }
  if (text !== undefined) {
    element.textContent = text;
  }
  return element;
}

/** One bar group of the chart, as ResultsView draws it. */
function barGroup(bar) {
  const group = svgElement('g', { class: 'bar' });
  const title = svgElement('title', {});
  title.textContent = bar.title;
  const labelBox = svgElement('svg', {
    class: 'bar-title',
    x: 0,
    y: bar.y,
    width: bar.labelWidth,
    height: 20,
  });
  const label = svgElement('text', { class: 'bar-label', x: 0, y: 15 });
  label.textContent = bar.label;
  labelBox.append(label);
  const value = svgElement('text', { class: 'bar-value', x: '100%', y: bar.textY });
  value.textContent = bar.value;
  group.append(
    title,
    labelBox,
    value,
    svgElement('rect', { class: 'bar-bg', x: 0, y: bar.barY, width: '100%', height: 16, rx: 8 }),
    svgElement('rect', {
      class: 'bar-range',
      x: bar.rangeX,
      y: bar.barY,
      width: bar.rangeWidth,
      height: 16,
      rx: 8,
    }),
    svgElement('rect', { class: 'bar-fill', x: 0, y: bar.barY, width: bar.sureWidth, height: 16, rx: 8 }),
    svgElement('rect', { class: 'bar-mark', x: bar.markX, y: bar.barY, width: '0.6%', height: 16 }),
  );
  return group;
}

/** The accent placeholder under a card's image (Templates/placeholder.mustache). */
function placeholder(accent) {
  const svg = svgElement('svg', {
    class: 'placeholder',
    viewBox: '0 0 4 3',
    preserveAspectRatio: 'none',
    'aria-hidden': 'true',
    focusable: 'false',
  });
  svg.append(svgElement('rect', { width: 4, height: 3, fill: accent }));
  return svg;
}

/** One row of the ranked table, or of the archived cards' table (`ranked` false: no rank cell). */
function tableRow(card, ranked) {
  const cells = tableCells(card);
  const row = document.createElement('tr');
  const title = htmlElement('td', 'title');
  const titleRow = htmlElement('div', 'title-row');
  const thumb = htmlElement('span', 'thumb');
  thumb.append(placeholder(card.accent));
  if (card.image) {
    const image = htmlElement('img');
    image.src = rooted(card.image);
    image.alt = '';
    image.loading = 'lazy';
    thumb.append(image);
  }
  const titleText = htmlElement('span', 'title-text', card.title);
  titleText.dir = 'auto';
  titleRow.append(thumb, titleText);
  title.append(titleRow);
  if (ranked) {
    row.append(htmlElement('td', 'rank', cells.rank));
  }
  row.append(title);
  for (const text of [cells.votes, cells.likes, cells.rate]) {
    row.append(htmlElement('td', 'num', text));
  }
  const range = htmlElement('td', 'range', cells.range);
  range.append(htmlElement('small', '', cells.certainty));
  if (cells.verdict) {
    const verdict = htmlElement('small', 'verdict', cells.verdict);
    verdict.dataset.state = cells.state;
    range.append(verdict);
  }
  row.append(range);
  row.append(htmlElement('td', 'num', cells.rooms));
  return row;
}

function createLiveResults(root) {
  const badge = root.querySelector('.live-badge');
  const chart = root.querySelector('figure.chart');
  const bars = root.querySelector('svg.bars');
  const noSwipes = root.querySelector('.no-swipes');
  const excludedNote = root.querySelector('.excluded-note');
  const tableBody = root.querySelector('table.ranked:not(.flagged-table):not(.archived-table) tbody');
  const archivedBody = root.querySelector('table.archived-table tbody');
  const archivedPanel = root.querySelector('.archived-results');
  const rejections = root.querySelector('.rejections ul');
  const reasonsScript = root.querySelector('#rejection-reasons');
  const reasons = reasonsScript ? JSON.parse(reasonsScript.textContent) : {};
  const noRejections = root.querySelector('.no-rejections');
  // The title's share of the chart comes from the server's drawing when there is one.
  const firstLabel = bars ? bars.querySelector('.bar-title') : null;
  const labelWidth = firstLabel ? firstLabel.getAttribute('width') : '52.0%';

  function render(report) {
    const stats = headlineStats(report);
    for (const element of root.querySelectorAll('[data-stat]')) {
      if (element.dataset.stat in stats) {
        element.textContent = stats[element.dataset.stat];
      }
    }
    for (const cell of root.querySelectorAll('table.kinds td[data-kind]')) {
      cell.textContent = String((report.swipesByKind || {})[cell.dataset.kind] || 0);
    }
    // "Decided" shows the moment the deck's stop rule holds (the stats above set its words).
    const decision = root.querySelector('.decision');
    if (decision) {
      decision.hidden = !report.decision;
      decision.classList.toggle('decided', Boolean(report.decision && report.decision.deckDecided));
    }
    if (excludedNote) {
      excludedNote.hidden = report.excludedParticipants === 0;
    }
    const drawn = chartBars(report.cards).map((bar) => ({ ...bar, labelWidth: labelWidth }));
    if (bars) {
      bars.replaceChildren(...drawn.map(barGroup));
      bars.setAttribute('height', String(drawn.length * ROW_HEIGHT));
    }
    if (chart) {
      chart.hidden = report.swipes === 0;
    }
    if (noSwipes) {
      noSwipes.hidden = report.swipes > 0;
    }
    if (tableBody) {
      // The page of the ranked table this page shows (the server pages it: ?page=N).
      const table = tableBody.closest('table');
      const start = Number(table.dataset.start || 0);
      const size = Number(table.dataset.size || report.cards.length);
      const shown = rankedCards(report.cards).slice(start, start + size);
      tableBody.replaceChildren(...shown.map((card) => tableRow(card, true)));
    }
    const archived = archivedCards(report.cards);
    if (archivedBody) {
      archivedBody.replaceChildren(...archived.map((card) => tableRow(card, false)));
      archivedPanel.hidden = archived.length === 0;
    }
    const listed = rejectionList(report.rejections, reasons);
    if (rejections) {
      rejections.replaceChildren(...listed.map((entry) => {
        const item = document.createElement('li');
        const reason = htmlElement('span', 'reason', entry.reason);
        reason.title = entry.code;
        item.append(reason, ' ', htmlElement('b', '', entry.count));
        return item;
      }));
    }
    if (noRejections) {
      noRejections.hidden = listed.length > 0;
    }
  }

  // The owner's page also shows κ, α and who is counted or flagged (the quality JSON and the owner's
  // results JSON, the owner's only): not in the shared results event, so they are asked for after each
  // change, one refresh at a time.
  const qualityUrl = root.dataset.quality;
  const peopleUrl = root.dataset.people;
  let qualityLoading = false;
  let qualityAgain = false;

  async function refreshQuality() {
    if (qualityLoading) {
      qualityAgain = true;
      return;
    }
    qualityLoading = true;
    try {
      const headers = { Accept: 'application/json' };
      const [quality, people] = await Promise.all([
        fetch(qualityUrl, { headers }),
        fetch(peopleUrl, { headers }),
      ]);
      const stats = {
        ...(quality.ok ? qualityStats(await quality.json()) : {}),
        ...(people.ok ? peopleStats(await people.json()) : {}),
      };
      for (const element of root.querySelectorAll('[data-stat]')) {
        if (element.dataset.stat in stats) {
          element.textContent = stats[element.dataset.stat];
        }
      }
    } catch (error) {
      // Offline or refused: the figures stay as they are until the next change asks again.
    }
    qualityLoading = false;
    if (qualityAgain) {
      qualityAgain = false;
      refreshQuality();
    }
  }

  function showConnected(connected) {
    if (badge) {
      badge.hidden = !connected;
    }
  }

  const source = new EventSource(root.dataset.live);
  source.addEventListener('open', () => showConnected(true));
  source.addEventListener('error', () => showConnected(false));
  // The first event is what the page was rendered from; later ones (a change, or a reconnection
  // that may have missed some) ask for the quality figures again.
  let firstEvent = true;
  source.addEventListener('results', (event) => {
    showConnected(true);
    try {
      render(JSON.parse(event.data));
    } catch (error) {
      // A malformed event leaves the page as it was; the next one redraws it.
    }
    if (qualityUrl && !firstEvent) {
      refreshQuality();
    }
    firstEvent = false;
  });
  return { render: render, close: () => source.close() };
}

const section = document.querySelector('section.results[data-live]');
if (section) {
  createLiveResults(section);
}
