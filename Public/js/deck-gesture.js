// The deck page's drag: Pointer Events on the stack turned into a recorded trace, the top card
// following the pointer, and on release physics.js's Classification.of deciding between a throw
// and a spring back. deck.js says whether the stack takes a drag and what a throw does.
import { Classification, DragState, Motion } from './physics.js';

/**
 * Wires the drag of one stack: `stack` its element, `events` the target that sees every pointer
 * move and release (the window), `view` the stack view (deck-stack.js), `profile` the swipe profile,
 * `frames` {request, cancel} (requestAnimationFrame and cancelAnimationFrame), `timers`
 * {setTimeout}, `isOpen()` whether the stack takes input now, and `onThrow(element, direction,
 * velocity, x, y, trace)` what a release that decides does. Returns {isDragging()}.
 */
export function createDragController({ stack, events, view, profile, frames, timers, isOpen, onThrow }) {
  let drag = null;
  let lastPointerDown = null;
  let dragJustEnded = 0;
  const slopSquared = profile.tapSlopPx * profile.tapSlopPx;

  // One active pointer, captured once the drag starts; a dead zone of tapSlopPx keeps taps (links,
  // the detail view) working; no layout reads while moving. `trace` is the recorded trace.
  function onPointerDown(event) {
    const top = view.liveCards()[0];
    lastPointerDown = event;
    if (drag || !top || !top.contains(event.target) || event.button || top.anim || !isOpen()) {
      return;
    }
    const box = top.getBoundingClientRect();
    const grab = {
      gx: event.clientX - box.left,
      gy: event.clientY - box.top,
      ox: event.clientX,
      oy: event.clientY,
    };
    const trace = { t: [0], x: [0], y: [0], ...view.geometry(top), ...grab };
    drag = { element: top, pointerId: event.pointerId, startTime: event.timeStamp, trace };
  }

  function onPointerMove(event) {
    if (!drag || event.pointerId !== drag.pointerId) {
      return;
    }
    const trace = drag.trace;
    const t = event.timeStamp - drag.startTime;
    const x = event.clientX - trace.ox;
    const y = event.clientY - trace.oy;
    if (!drag.live) {
      if (!event.buttons) {
        // Released where no pointerup reached the page.
        drag = null;
        return;
      }
      if (x * x + y * y < slopSquared) {
        return;
      }
      // Past the dead zone the card follows in every direction, as on a native card stack.
      drag.element.setPointerCapture(drag.pointerId);
      drag.live = true;
      drag.element.classList.add('dragging');
      if (profile.rotateAboutGrabPoint) {
        drag.element.style.transformOrigin = `${trace.gx}px ${trace.gy}px`;
      }
    }
    if (t > trace.t.at(-1)) {
      trace.t.push(t);
      trace.x.push(x);
      trace.y.push(y);
    }
    if (!drag.frame) {
      const current = drag;
      current.frame = frames.request(() => {
        current.frame = 0;
        const state = DragState.of(x, y, trace.w, trace.h, trace.vw, trace.vh, trace.ox, profile);
        view.paint(current.element, trace.x.at(-1), trace.y.at(-1), trace);
        view.showOverlays(current.element, state.candidate, Motion.overlayOpacity(state.progress, profile));
      });
    }
  }

  function onPointerEnd(event) {
    if (!drag || event.pointerId !== drag.pointerId) {
      return;
    }
    const ended = drag;
    drag = null;
    if (!ended.live) {
      // A tap: the card's link takes it.
      return;
    }
    frames.cancel(ended.frame);
    // Swallow only the click that ends this drag.
    dragJustEnded = timers.setTimeout(() => {
      dragJustEnded = 0;
    });
    const trace = ended.trace;
    const verdict = Classification.of(trace, null, profile);
    const direction = event.type === 'pointerup' ? verdict.decision : 'none';
    const x = trace.x.at(-1);
    const y = trace.y.at(-1);
    if (direction !== 'none') {
      onThrow(ended.element, direction, verdict.velocity, x, y, trace);
    } else {
      view.springBack(ended.element, x, y, verdict.velocity, trace);
    }
  }

  // A click ends a tap only: not a drag, nor a press that moved past the dead zone without becoming
  // one (a press on a card that was still moving); keyboard clicks (detail 0) pass.
  function onStackClick(event) {
    const dx = event.clientX - lastPointerDown?.clientX;
    const dy = event.clientY - lastPointerDown?.clientY;
    const moved = dx ** 2 + dy ** 2 > slopSquared;
    if (dragJustEnded || (event.detail && moved)) {
      event.preventDefault();
    }
  }

  stack.addEventListener('pointerdown', onPointerDown);
  // Moves and releases are watched on the window: a press that leaves the stack before it becomes a
  // drag (no capture yet) still ends.
  events.addEventListener('pointermove', onPointerMove);
  events.addEventListener('pointerup', onPointerEnd);
  events.addEventListener('pointercancel', onPointerEnd);
  stack.addEventListener('click', onStackClick, true);

  return {
    isDragging: () => drag !== null,
  };
}
