// The match room's pure helpers: no DOM, no network, no clock (room.js and deck-together.js wire them to
// the pages; Tests/js/room-model.test.mjs runs them under node). The room's state is the server's
// RoomState JSON (GET /api/v1/rooms/{code}); applyRoomEvent folds the events stream into it the way the
// server built it, so a page that reconnects (a fresh 'state' event) and one that followed every event
// show the same room.

/** The characters of a room code: no 0/O, 1/I/L, which read alike (RoomCode on the server). */
export const roomCodeAlphabet = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/** How many characters a room code has. */
export const roomCodeLength = 6;

/** A display name's longest length in characters, as the server trims it. */
export const maxMemberName = 40;

/**
 * A typed room code, checked: {code} upper-cased with spaces and dashes dropped (people read codes
 * aloud in groups: "K7M 2QX"), or {error} a sentence for the field. A link pasted whole
 * (…/r/K7M2QX) gives its code.
 */
export function parseRoomCode(typed) {
  const linked = /\/r\/([^/?#\s]+)/.exec(typed);
  const code = (linked ? linked[1] : typed).replace(/[\s-]/g, '').toUpperCase();
  if (code === '') {
    return { error: 'Type the room\'s code: the 6 letters and digits the group was given.' };
  }
  if (code.length !== roomCodeLength) {
    return { error: `A room code has ${roomCodeLength} letters and digits; this one has ${code.length}.` };
  }
  const stray = [...code].filter((character) => !roomCodeAlphabet.includes(character));
  if (stray.length) {
    return { error: 'Room codes have no 0, 1, I, L or O: check the code and type it again.' };
  }
  return { code };
}

/**
 * The match rule the create form picked: `kind` 'all', 'atLeast' or 'share' and `amount` the form's
 * number (members for atLeast, percent for share). {rule} the API's rule JSON, or {error} a sentence.
 */
export function roomRule(kind, amount) {
  if (kind === 'all') {
    return { rule: { kind: 'all' } };
  }
  const number = Number(amount);
  if (kind === 'atLeast') {
    if (!Number.isInteger(number) || number < 1) {
      return { error: 'How many must like a card: a whole number, at least 1.' };
    }
    return { rule: { kind: 'atLeast', count: number } };
  }
  if (!Number.isInteger(number) || number < 1 || number > 100) {
    return { error: 'The share that must like a card: a whole percent from 1 to 100.' };
  }
  return { rule: { kind: 'share', percent: number } };
}

/** The rule in words: "Everyone likes it", "At least 2 like it", "At least 60 % like it". */
export function ruleWords(rule) {
  if (rule.kind === 'atLeast') {
    return `At least ${rule.count} like it`;
  }
  if (rule.kind === 'share') {
    return `At least ${rule.percent} % like it`;
  }
  return 'Everyone likes it';
}

/** "12 of 50" and a finished member's "done": a member's progress, never their decisions. */
export function progressWords(member, cardCount) {
  if (member.finished) {
    return 'done';
  }
  return `${member.decided} of ${cardCount}`;
}

/** The names of the members `ids` names, in the room's order: "Ana and Ben", "Ana, Ben and Cy". */
export function likedByWords(ids, members) {
  const names = members.filter((member) => ids.includes(member.id)).map((member) => member.name);
  if (names.length <= 1) {
    return names.join('');
  }
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** What the page shows around the stack: 'expired', 'finished', or 'open'. */
export function roomPhase(state) {
  if (state.state === 'expired') {
    return 'expired';
  }
  if (state.state === 'finished') {
    return 'finished';
  }
  return 'open';
}

/** Whether a finished room offers a second round: nothing matched and there are closest cards. */
export function offersSecondRound(state) {
  return state.state === 'finished' && state.matches.length === 0 && state.closest.length > 0;
}

/**
 * The finished panel's sentence: the matches are in the drawer; or, nothing matched, the closest cards
 * (cards somebody liked) follow; or nobody liked any card (no closest cards, and no second round).
 */
export function finishedWords(state) {
  if (state.matches.length > 0) {
    return 'Your matches are in the drawer above.';
  }
  if (state.closest.length > 0) {
    return 'Nothing matched. These came closest:';
  }
  return 'Nobody liked any card this time.';
}

/** Whether a finished room has nothing to go on from (no match, nobody liked a card): offer a new room. */
export function offersNewRoom(state) {
  return state.state === 'finished' && state.matches.length === 0 && state.closest.length === 0;
}

/** The members still in the room (a left member no longer counts). */
export function presentMembers(state) {
  return state.members.filter((member) => !member.left);
}

/**
 * `state` after one event of GET /api/v1/rooms/{code}/events (`type` the event's name, `data` its
 * parsed JSON): a new object, `state` untouched. 'state' replaces it; 'member' ({member: {id, name},
 * change: 'joined' | 'left'}) adds or updates the member; 'progress' ({member, decided}) sets a member's
 * count (finished once it reaches the round's cards); 'match' adds a match once; 'unmatch' takes the
 * card's match away; 'finished' marks the room finished with its closest cards. Others ('round': the
 * page reloads for the new deal) change nothing.
 */
export function applyRoomEvent(state, type, data) {
  if (type === 'state') {
    return data;
  }
  if (type === 'member') {
    // The event names the member ({id, name}) and the change; what it does not say stays as known.
    const left = data.change === 'left';
    const known = state.members.find((member) => member.id === data.member.id);
    const fresh = { decided: 0, finished: false, ...known, ...data.member, left };
    const members = known
      ? state.members.map((member) => (member.id === fresh.id ? fresh : member))
      : [...state.members, fresh];
    return { ...state, members };
  }
  if (type === 'progress') {
    const finished = state.cardCount > 0 && data.decided >= state.cardCount;
    const members = state.members.map((member) => (member.id === data.member
      ? { ...member, decided: data.decided, finished }
      : member));
    return { ...state, members };
  }
  if (type === 'match') {
    if (state.matches.some((match) => match.card.id === data.match.card.id)) {
      return state;
    }
    return { ...state, matches: [...state.matches, data.match] };
  }
  if (type === 'unmatch') {
    return { ...state, matches: state.matches.filter((match) => match.card.id !== data.card) };
  }
  if (type === 'finished') {
    return { ...state, state: 'finished', closest: data.closest ?? [] };
  }
  return state;
}

/**
 * The matches `after` has that `before` had not: the ones to celebrate. A reconnect's 'state' event
 * repeats matches the page showed already; only new ones raise "It's a match!".
 */
export function newMatches(before, after) {
  const seen = new Set(before.matches.map((match) => match.card.id));
  return after.matches.filter((match) => !seen.has(match.card.id));
}

/** The room's link path and its QR code's path, for a code. */
export function roomPaths(code) {
  return { page: `/r/${code}`, qr: `/r/${code}/qr.svg` };
}

/** A refusal of the rooms API in words for the field it concerns (codes of ApiError). */
export function roomRefusal(status, code) {
  const words = {
    room_not_found: 'No room has that code. Check it with the person who shared it.',
    room_full: 'That room is full: ask its creator to start another one.',
    room_finished: 'That room has finished deciding.',
    rooms_off: 'This deck\'s owner does not allow rooms.',
    invalid_room_rule: 'That match rule cannot be used: pick everyone, a count or a share.',
    not_a_room_member: 'Join the room first.',
  };
  if (words[code]) {
    return words[code];
  }
  if (!status) {
    return 'Offline: try again when connected.';
  }
  return `The server refused (${status}): try again in a moment.`;
}
