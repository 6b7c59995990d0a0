// The 3D turn between the stack and a card's detail view is a cross-document view transition
// (turn.css). A transition the browser gives up on (the new page was already shown, the user went
// on before it could start) rejects its promises; that is not a failure of the page, so they are
// handled here. A classic script in <head>: `pagereveal` can fire before module scripts run.
function settle(event) {
  const transition = event.viewTransition;
  if (!transition) {
    return;
  }
  transition.ready.catch(() => {});
  transition.finished.catch(() => {});
  transition.updateCallbackDone.catch(() => {});
}

/** Whether a page turns: a deck's stack (/d/slug) or a card's detail view (/d/slug/cards/id). */
function turns(url) {
  return /^\/d\/[^/]+(\/cards\/\d+)?\/?$/.test(new URL(url).pathname);
}

// Only the stack and a detail view opt in (turn.css). Leaving for another page (My swipes, the
// results) the new page does not, and the browser aborted the transition there with an uncaught
// "Transition was aborted because of invalid state" on every such navigation: skip it here.
function leave(event) {
  settle(event);
  const target = event.activation?.entry?.url;
  if (event.viewTransition && target && !turns(target)) {
    event.viewTransition.skipTransition();
  }
}

addEventListener('pagereveal', settle);
addEventListener('pageswap', leave);
