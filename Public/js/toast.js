// The page's status line (the "toast"): a short message that clears itself. Shared by the deck page
// (deck.js) and the history page (history.js); the element is the page's `.toast`, an aria-live region
// in the server's markup, so screen readers hear each message too.

/** How long a message stays, in ms: long enough to read a short sentence twice. */
export const toastMs = 3000;

/**
 * A function `say(message)` that shows `message` in `element` for `durationMs` (a newer message
 * replaces it and restarts the time). `timers` is passed in ({setTimeout, clearTimeout}) so tests
 * can run the clock; the page passes the window's.
 */
export function createToast(element, timers = globalThis, durationMs = toastMs) {
  let timer = 0;
  return function say(message) {
    element.textContent = message;
    timers.clearTimeout(timer);
    timer = timers.setTimeout(() => {
      element.textContent = '';
    }, durationMs);
  };
}
