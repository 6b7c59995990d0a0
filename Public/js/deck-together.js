// "Decide together" on the deck page: start a match room (POST /api/v1/decks/{deck}/rooms, the rule
// and options the form picked, an optional name) and hand its code, link and QR code to the group (the
// Web Share sheet where the browser has one, a copy button otherwise); and "Join a room": a typed code
// goes to the room's page, or a sentence next to the field says what is wrong with it. Without
// JavaScript both forms post to the server's page routes, which do the same and redirect.
import { parseRoomCode, roomPaths, roomRefusal, roomRule, ruleWords } from './room-model.js';
import { requestTimeoutMs } from './deck-model.js';
import { rooted } from './root.js';

/**
 * Wires the deck page's rooms section `root` (<section class="together">, data-api the deck's API base):
 * `fetch`, `location` (assign, origin), `navigator` (share, clipboard: either may be missing) and
 * `timeout(ms)` the browser's.
 */
export function createTogether(root, browser) {
  const { fetch, location, navigator, timeout } = browser;
  const createForm = root.querySelector('.room-create');
  const createError = createForm.querySelector('.field-error');
  const made = root.querySelector('.room-made');
  const joinForm = root.querySelector('.room-join');
  const joinError = joinForm.querySelector('.field-error');
  const joinField = joinForm.querySelector('input[name=code]');
  const startPanel = root.querySelector('.together-start');
  const joinPanel = root.querySelector('.together-join');

  function showError(paragraph, words) {
    paragraph.textContent = words;
    paragraph.hidden = !words;
  }

  function showRoom(code, rule) {
    const paths = roomPaths(code);
    const link = location.origin + rooted(paths.page);
    made.querySelector('.room-code').textContent = code;
    made.querySelector('.room-made-rule').textContent = ruleWords(rule).toLowerCase();
    made.querySelector('.room-link').value = link;
    made.querySelector('.room-qr').src = rooted(paths.qr);
    made.querySelector('.room-go').href = rooted(paths.page);
    const share = made.querySelector('.room-share');
    const canShare = typeof navigator.share === 'function';
    share.textContent = canShare ? 'Share' : 'Copy link';
    share.onclick = () => {
      if (canShare) {
        // Dismissing the share sheet rejects; the link stays on screen to copy by hand.
        navigator.share({ title: 'Decide together', text: `Room ${code}`, url: link }).catch(() => null);
        return;
      }
      const clipboard = navigator.clipboard;
      const copied = clipboard ? clipboard.writeText(link) : Promise.reject(new Error('no clipboard'));
      copied.then(() => {
        share.textContent = 'Copied ✓';
      }, () => {
        made.querySelector('.room-link').select();
      });
    };
    createForm.hidden = true;
    made.hidden = false;
    made.querySelector('.room-go').focus();
  }

  async function create(event) {
    event.preventDefault();
    const field = (name) => createForm.querySelector(`[name=${name}]`).value;
    const kind = createForm.querySelector('[name=rule]:checked').value;
    const picked = roomRule(kind, kind === 'share' ? field('percent') : field('count'));
    if (picked.error) {
      showError(createError, picked.error);
      return;
    }
    const body = { rule: picked.rule };
    body.likedFirst = createForm.querySelector('[name=likedFirst]').checked;
    body.endOnFirstMatch = createForm.querySelector('[name=endOnFirstMatch]').checked;
    const name = field('name').trim();
    if (name) {
      body.name = name;
    }
    const init = {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: timeout(requestTimeoutMs),
    };
    const response = await fetch(`${root.dataset.api}/rooms`, init).catch(() => null);
    const answer = response ? await response.json().catch(() => null) : null;
    if (!response || !response.ok || !answer) {
      showError(createError, roomRefusal(response ? response.status : 0, answer?.error?.code));
      return;
    }
    showError(createError, '');
    showRoom(answer.code, picked.rule);
  }

  // A code that cannot be one is refused here; one no room has is refused by the server (the room's page
  // answers 404): both next to the field. The page, not GET /api/v1/rooms/{code}: that is the room's
  // state, which a non-member is refused (403, logged by the browser) until they join on the page.
  async function join(event) {
    event.preventDefault();
    const parsed = parseRoomCode(joinField.value);
    if (parsed.error) {
      showError(joinError, parsed.error);
      joinField.focus();
      return;
    }
    const page = rooted(roomPaths(parsed.code).page);
    const init = { signal: timeout(requestTimeoutMs) };
    const response = await fetch(page, init).catch(() => null);
    if (!response || !response.ok) {
      const status = response ? response.status : 0;
      showError(joinError, roomRefusal(status, status === 404 ? 'room_not_found' : undefined));
      joinField.focus();
      return;
    }
    showError(joinError, '');
    location.assign(page);
  }

  // Typing a number of members or a share, or clicking into its field, picks its rule: what a person
  // typed is the rule they meant. Focus alone does not: a keyboard user tabbing through the form keeps
  // the rule they had (issue 39 K1).
  for (const kind of ['atLeast', 'share']) {
    const pick = () => {
      createForm.querySelector(`[name=rule][value=${kind}]`).checked = true;
    };
    const amount = createForm.querySelector(kind === 'share' ? '[name=percent]' : '[name=count]');
    amount.addEventListener('click', pick);
    amount.addEventListener('input', pick);
  }

  // An opened panel comes into view with its first field focused (it opens below the controls).
  function opened(panel, field) {
    if (panel.open) {
      panel.scrollIntoView({ block: 'nearest' });
      field.focus();
    }
  }

  createForm.addEventListener('submit', create);
  joinForm.addEventListener('submit', join);
  startPanel.addEventListener('toggle', () => opened(startPanel, createForm.querySelector('[name=name]')));
  joinPanel.addEventListener('toggle', () => opened(joinPanel, joinField));
  // A finished room's "Start a new room" links here: the start form is open.
  if (location.hash === '#decide-together') {
    startPanel.open = true;
  }
  root.dataset.ready = 'true';
}

const together = document.querySelector('.together');
if (together) {
  createTogether(together, {
    fetch: (url, init) => fetch(url, init),
    location,
    navigator,
    timeout: (ms) => AbortSignal.timeout(ms),
  });
}
