// The deck page's words around the stack: the panel of the stack's state, the count left, what a
// screen reader hears, the first-visit hint, the offline banner, the big screen's banner and the
// out-of-cards offline panel.
// deck.js says what holds; this module shows it. Its sentences are deck-model.js's.
import { announcement, offlineBannerText, offlineDescription } from './deck-model.js';

/**
 * Wires the panels of one deck page: `root` the page, `storage` the browser's localStorage (the
 * hint's seen flag, under `hintKey`) and `springScale(element)` the count pill's spring.
 */
export function createPanels({ root, storage, hintKey, springScale }) {
  const stack = root.querySelector('#stack');
  const announcer = root.querySelector('#announce');
  const counter = root.querySelector('#remaining');
  const counterPill = root.querySelector('.counter');
  const statePanels = root.querySelectorAll('.stack-state');
  const offlineState = root.querySelector('.offline-state');
  const offlineBanner = root.querySelector('.offline-banner');
  const stageBanner = root.querySelector('.stage-banner');
  const hint = root.querySelector('.swipe-hint');
  const head = root.querySelector('.deck-head');
  const description = root.querySelector('.deck-description');

  function announce(topTitle, left) {
    announcer.textContent = announcement(topTitle, left);
  }

  function showCount(left) {
    if (counter.textContent !== String(left)) {
      counter.textContent = left;
      springScale(counterPill);
    }
  }

  // Only the panel of the stack's state shows; in any state but open the cards take no input.
  function showState(state) {
    root.dataset.state = state;
    statePanels.forEach((panel) => {
      panel.hidden = !panel.classList.contains('state-' + state);
    });
    stack.inert = state !== 'open';
    if (state !== 'open') {
      hint.hidden = true;
    }
  }

  // Cards still to come but unreachable (`show`): say so, and what waits here.
  function showOfflineState(show, offline, waiting) {
    offlineState.hidden = !show;
    if (!show) {
      return;
    }
    const words = offlineDescription(offline, waiting);
    offlineState.querySelector('.offline-title').textContent = words.title;
    offlineState.querySelector('.offline-text').textContent = words.text;
  }

  // Offline (or the server unreachable, or no participant id yet) shows at once above the stack,
  // with the swipes that wait.
  function showOfflineBanner(offline, unreachable, joining, waiting) {
    const text = offlineBannerText(offline, unreachable, joining, waiting);
    offlineBanner.hidden = !text;
    if (text) {
      offlineBanner.textContent = text;
    }
  }

  // A deck on a big screen: its results shown, or soon (`words`, deck-model.js stageWords), with the
  // way to this person's decisions beside the room's once they show.
  function showStage(words, revealed) {
    stageBanner.hidden = !words;
    stageBanner.querySelector('.stage-words').textContent = words;
    stageBanner.querySelector('.stage-room').hidden = !revealed;
  }

  // A host-paced deck without a card to decide: why, in the waiting panel (deck-model.js waitingWords).
  function showWaiting(words) {
    root.querySelector('.waiting-words').textContent = words;
  }

  // What stands above the stack beyond a one-line title (more title lines, the description, the
  // offline notice) comes off the stack's height (--head-extra in app.css).
  function fitStack() {
    let extra = head.offsetHeight - counterPill.offsetHeight;
    if (description) {
      extra += description.offsetHeight;
    }
    if (!offlineBanner.hidden) {
      extra += offlineBanner.offsetHeight;
    }
    if (stageBanner && !stageBanner.hidden) {
      extra += stageBanner.offsetHeight;
    }
    root.style.setProperty('--head-extra', `${Math.max(extra, 0)}px`);
  }

  // The first-visit hint: shown on an open deck until dismissed (its button, or a first decision).
  function showHint(state) {
    let seen = true;
    try {
      seen = storage.getItem(hintKey) === '1';
    } catch {
      // Storage refused (a private window's policy): show the hint; the page works without it.
      seen = false;
    }
    hint.hidden = seen || state !== 'open';
  }

  function dismissHint() {
    if (hint.hidden) {
      return;
    }
    hint.hidden = true;
    try {
      storage.setItem(hintKey, '1');
    } catch {
      // Storage full or refused: the hint comes back on the next visit, nothing else is lost.
    }
  }

  hint.querySelector('.hint-dismiss').addEventListener('click', dismissHint);

  return {
    announce, showCount, showState, showOfflineState, showOfflineBanner, showStage, showWaiting, fitStack,
    showHint,
    dismissHint,
  };
}
