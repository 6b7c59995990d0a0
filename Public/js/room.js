// A match room's page (/r/{code}) for a member: the stack is the deck page's (deck.js, in room mode: the
// section's data-room makes it deal the room's order and name the room in each swipe); this module adds
// what the room shows around it, live through GET /api/v1/rooms/{code}/events (EventSource reconnects by
// itself and starts again with a 'state' event): the members strip with each member's progress (never
// their decisions), "It's a match!" over the stack with the card, sprung in by the profile's return
// spring, the matches drawer, and the finished or expired panel. Without JavaScript the page is complete
// as served and shows the same on reload. The pure helpers are room-model.js.
import { keyAction } from './deck-model.js';
import { dampedSpring } from './physics.js';
import {
  applyRoomEvent, finishedWords, likedByWords, newMatches, offersNewRoom, offersSecondRound, progressWords,
  roomPhase,
} from './room-model.js';
import { rooted } from './root.js';

/** The events the stream sends (each a JSON body), as GET /api/v1/rooms/{code}/events names them. */
const roomEvents = ['state', 'member', 'progress', 'match', 'unmatch', 'finished'];

/**
 * Wires one room page: `root` the room's <section class="room"> (data-code), `state` the RoomState the
 * server rendered the page from, `profile` the deck's swipe profile, and the browser's parts: `document`,
 * `EventSource`, `clock` {now, frame} (performance.now, requestAnimationFrame), `reduceMotion`,
 * `reload()` and `keys` (where key presses arrive: the window).
 * Returns {state(), apply(type, data)}: the room as the page knows it, and one event folded in.
 */
export function createRoomPage(root, state, profile, browser) {
  const { document, clock, reduceMotion } = browser;
  const code = root.dataset.code;
  const members = root.querySelector('.room-members');
  const matchList = root.querySelector('.match-list');
  const matchCount = root.querySelector('.match-count');
  const overlay = root.querySelector('.match-overlay');
  const finished = root.querySelector('.room-finished');
  const closestList = root.querySelector('.closest-list');
  const secondRound = root.querySelector('.second-round');
  const words = root.querySelector('.finished-words');
  const newRoom = root.querySelector('.room-new');
  const expired = root.querySelector('.room-expired');
  const drawer = root.querySelector('.matches-drawer');
  const stackWrap = document.querySelector('.deck-page .stack-wrap');
  const controls = document.querySelector('.deck-page .controls');
  const leave = document.querySelector('.deck-page .room-leave');
  let room = state;

  function element(name, className, text) {
    const made = document.createElement(name);
    made.className = className;
    if (text !== undefined) {
      made.textContent = text;
    }
    return made;
  }

  // A card's face as the drawer, the overlay and the closest list show it: image (if any) and title.
  function cardFace(card) {
    const face = element('div', 'room-card');
    face.style.setProperty('--accent', card.accent);
    if (card.image) {
      const image = element('img', 'room-card-image');
      image.src = rooted(card.image);
      image.alt = '';
      face.append(image);
    }
    face.append(element('span', 'room-card-title', card.title));
    return face;
  }

  function renderMembers() {
    const items = room.members.filter((member) => !member.left).map((member) => {
      const item = element('li', member.id === room.you ? 'member you' : 'member');
      item.dataset.member = member.id;
      item.append(element('span', 'member-name', member.name), element('span', 'member-progress',
        progressWords(member, room.cardCount)));
      return item;
    });
    members.replaceChildren(...items);
  }

  function renderMatches() {
    const items = room.matches.map((match) => {
      const item = element('li', 'match');
      item.dataset.card = match.card.id;
      const likedBy = likedByWords(match.likedBy, room.members);
      item.append(cardFace(match.card), element('span', 'match-liked', likedBy));
      return item;
    });
    matchList.replaceChildren(...items);
    matchCount.textContent = String(room.matches.length);
  }

  function renderPhase() {
    const phase = roomPhase(room);
    finished.hidden = phase !== 'finished';
    // The finished panel points at the drawer: it opens once, when the room finishes.
    if (phase === 'finished' && root.dataset.phase !== 'finished') {
      drawer.open = true;
    }
    expired.hidden = phase !== 'expired';
    if (stackWrap) {
      stackWrap.hidden = phase !== 'open';
    }
    // A room that takes no more swipes shows no buttons to swipe or undo with.
    if (controls) {
      controls.hidden = phase !== 'open';
    }
    // Nor "Leave the room": a finished or expired room has nobody to leave (the server would refuse).
    if (leave) {
      leave.hidden = phase !== 'open';
    }
    const closest = room.closest.map((entry) => {
      const item = element('li', 'closest');
      item.append(cardFace(entry.card), element('span', 'closest-likes', `${entry.likes} liked it`));
      return item;
    });
    closestList.replaceChildren(...closest);
    secondRound.hidden = !offersSecondRound(room);
    words.textContent = finishedWords(room);
    newRoom.hidden = !offersNewRoom(room);
    root.dataset.phase = phase;
  }

  // Where focus was when "It's a match!" opened: it goes back there when the dialog closes.
  let opener = null;

  // "It's a match!" rises over the stack on the profile's return spring, from one card height below. A
  // modal dialog (showModal): Tab stays in it and nothing behind it takes a key or a click until it closes.
  function celebrate(match) {
    overlay.querySelector('.match-face').replaceChildren(cardFace(match.card));
    overlay.querySelector('.match-by').textContent = `Liked by ${likedByWords(match.likedBy, room.members)}`;
    overlay.dataset.card = match.card.id;
    if (!overlay.open) {
      opener = document.activeElement;
      overlay.showModal();
    }
    overlay.querySelector('.match-close').focus();
    const panel = overlay.querySelector('.match-panel');
    if (reduceMotion) {
      return;
    }
    const spring = dampedSpring(profile.returnSpring);
    const offset = panel.offsetHeight;
    const duration = spring.settleTime(offset, 0);
    const start = clock.now();
    const frame = () => {
      const t = clock.now() - start;
      if (t >= duration) {
        panel.style.removeProperty('transform');
        return;
      }
      panel.style.transform = `translateY(${spring.state(t, offset, 0).position}px)`;
      clock.frame(frame);
    };
    frame();
  }

  function apply(type, data) {
    const before = room;
    room = applyRoomEvent(room, type, data);
    renderMembers();
    renderMatches();
    renderPhase();
    const fresh = newMatches(before, room);
    if (fresh.length) {
      celebrate(fresh.at(-1));
    }
  }

  overlay.querySelector('.match-close').addEventListener('click', () => {
    overlay.close();
  });

  // Closed (its button, Escape): focus goes back where it was, else to the stack or the matches drawer
  // (the button that made the match may be gone with a room that finished meanwhile).
  overlay.addEventListener('close', () => {
    const targets = [opener, document.querySelector('#stack'), drawer.querySelector('summary')];
    opener = null;
    for (const target of targets) {
      if (target && target.isConnected && target !== document.body) {
        target.focus();
        if (document.activeElement === target) {
          return;
        }
      }
    }
  });

  // Ahead of the deck's own key handling (capture): while "It's a match!" is up, Escape closes it and
  // no key swipes or undoes the card behind it; a room that is not open takes no key either.
  function onKey(event) {
    if (overlay.open && event.key === 'Escape') {
      overlay.close();
      event.stopPropagation();
      return;
    }
    // Its one control keeps focus: Tab would otherwise leave the page for the browser's own controls.
    if (overlay.open && event.key === 'Tab') {
      event.preventDefault();
      overlay.querySelector('.match-close').focus();
      return;
    }
    const blocked = overlay.open || roomPhase(room) !== 'open';
    if (blocked && keyAction(event.key)) {
      event.stopPropagation();
    }
  }
  browser.keys.addEventListener('keydown', onKey, true);

  const stream = new browser.EventSource(rooted(`/api/v1/rooms/${code}/events`));
  for (const type of roomEvents) {
    stream.addEventListener(type, (event) => apply(type, JSON.parse(event.data)));
  }
  // A second round deals other cards: the page starts again from the server's deal.
  stream.addEventListener('round', () => browser.reload());
  stream.addEventListener('open', () => {
    root.dataset.live = 'true';
  });
  stream.addEventListener('error', () => {
    root.dataset.live = 'false';
  });
  renderMembers();
  renderMatches();
  renderPhase();
  return { state: () => room, apply };
}

const section = document.querySelector('.room');
if (section) {
  const roomState = JSON.parse(document.querySelector('#room-state').textContent);
  const swipeProfile = JSON.parse(document.querySelector('#swipe-profile').textContent);
  createRoomPage(section, roomState, swipeProfile, {
    document,
    EventSource,
    clock: { now: () => performance.now(), frame: (callback) => requestAnimationFrame(callback) },
    reduceMotion: matchMedia('(prefers-reduced-motion: reduce)').matches,
    reload: () => location.reload(),
    keys: window,
  });
}
