// The deck page's buttons and keys: each acts like a real swipe (deck.js's act), and the pressed
// control springs back (deck-stack.js's springScale). The forms still post when scripts are off.
import { isTyping, keyAction } from './deck-model.js';

/**
 * Wires the controls of one deck page: `root` the page, `controls` the buttons' form, `events` the
 * target that sees every key and pointer release (the window), `document` the page's document,
 * `profile` the swipe profile, `reduceMotion` the user's preference, `springScale(element)` the press
 * spring and `act(action, input)` what a direction or 'undo' does. Returns {update(outOfCards, state)},
 * which enables the buttons that can act in the stack's state.
 */
export function createControls(parts) {
  const { root, controls, events, document, profile, reduceMotion, springScale, act } = parts;
  let pressedControl = null;

  function onControlsPointerDown(event) {
    const button = event.target.closest('.ctl');
    if (!button || button.disabled || reduceMotion) {
      return;
    }
    // Held down: the spring's starting point, until the release lets it go.
    button.anim = 0;
    button.style.transform = `scale(${profile.pressScale})`;
    pressedControl = button;
  }

  function releaseControl() {
    if (pressedControl) {
      springScale(pressedControl);
      pressedControl = null;
    }
  }

  function controlFor(action) {
    const selector = action === 'undo' ? '.ctl-undo' : `[name=direction][value="${action}"]`;
    return controls.querySelector(selector);
  }

  // A double click is one activation: its second click (detail 2) decides nothing.
  function onControlsClick(event) {
    if (event.detail > 1) {
      event.preventDefault();
    }
  }

  function onControlsSubmit(event) {
    event.preventDefault();
    act(event.submitter?.value || 'undo', 'button');
  }

  // Keys act on the deck when the deck has focus, or when nothing has focus and, for up and down,
  // the page does not scroll (so a short screen still scrolls with the keyboard). The page never
  // scrolls sideways on purpose (a thrown card may overhang it for a moment), so left and right are
  // the deck's. Held keys repeat: only the first press acts.
  function keyReachesDeck(action) {
    const focused = document.activeElement;
    if (focused && focused !== document.body) {
      return root.contains(focused);
    }
    if (action !== 'up' && action !== 'down') {
      return true;
    }
    const page = document.scrollingElement;
    return page.scrollHeight <= page.clientHeight;
  }

  function onKeyDown(event) {
    const action = keyAction(event.key);
    const modified = event.metaKey || event.ctrlKey || event.altKey;
    if (!action || event.repeat || modified || isTyping(event.target) || !keyReachesDeck(action)) {
      return;
    }
    event.preventDefault();
    act(action, 'key');
    const button = controlFor(action);
    if (button && !button.hidden) {
      springScale(button);
    }
  }

  // Direction buttons act on an open stack with a card; undo on any deck that can still change.
  function update(outOfCards, state) {
    controls.querySelectorAll('[name=direction]').forEach((button) => {
      button.disabled = outOfCards || state !== 'open';
    });
    controlFor('undo').disabled = state === 'closed' || state === 'noCards';
  }

  controls.addEventListener('click', onControlsClick, true);
  controls.addEventListener('submit', onControlsSubmit);
  controls.addEventListener('pointerdown', onControlsPointerDown);
  events.addEventListener('pointerup', releaseControl);
  events.addEventListener('pointercancel', releaseControl);
  // A listener, not onkeydown: an on-handler returning false would cancel every other key.
  events.addEventListener('keydown', onKeyDown);

  return { update };
}
