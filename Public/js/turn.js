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

addEventListener('pagereveal', settle);
addEventListener('pageswap', settle);
