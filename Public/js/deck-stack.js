// The deck page's stack: card elements built from their JSON, their depth in the stack, and how a
// card moves (painted, thrown out, sprung back, brought back, flown in). Every number comes from the
// profile through physics.js; deck.js decides when a card moves, this module only moves it.
import { overlayFamily } from './deck-model.js';
import { Motion, dampedSpring } from './physics.js';
import { rooted } from './root.js';

/**
 * Builds a card element from the card's own JSON (GET …/cards) out of the page's empty card
 * (<template id="card-template">, the server's card markup), so a fetched card has its own image
 * or its own placeholder, never the first card's.
 */
export function createCardBuilder(template) {
  const document = template.ownerDocument;
  return function buildCard(card) {
    const element = template.content.firstElementChild.cloneNode(true);
    const titleId = 'card-title-' + card.id;
    element.id = 'card-' + card.id;
    element.dataset.card = card.id;
    element.setAttribute('aria-labelledby', titleId);
    const title = element.querySelector('.card-title');
    title.id = titleId;
    title.textContent = card.title;
    element.querySelector('.card-subtitle').textContent = card.subtitle;
    element.querySelectorAll('a').forEach((link) => {
      link.href = card.detail;
    });
    element.querySelector('.placeholder rect').setAttribute('fill', card.accent);
    if (card.image) {
      const image = document.createElement('img');
      image.src = rooted(card.image);
      image.alt = '';
      image.draggable = false;
      image.loading = 'lazy';
      element.querySelector('.card-media').append(image);
    }
    return element;
  };
}

/**
 * Runs frame(elapsed ms) each frame while it returns true, then `then`. A newer animation of the
 * same element (undo during a throw) silently ends the older one; a card that is moving takes no
 * drag. `clock` is {now() in ms, frame(callback)} (performance.now, requestAnimationFrame).
 */
export function createAnimator(clock) {
  return function animate(element, frame, then) {
    const start = clock.now();
    element.anim = frame;
    const step = () => {
      if (element.anim !== frame) {
        return;
      }
      if (frame(clock.now() - start)) {
        clock.frame(step);
        return;
      }
      element.anim = 0;
      then();
    };
    step();
  };
}

/**
 * The stack of one deck page: `stack` its element, `template` the empty card, `profile` the swipe
 * profile, `clock` as in createAnimator, `viewport()` the window's {width, height} in px,
 * `reduceMotion` the user's preference (springs critically damped, fades instead of slides) and
 * `random()` a number in [0, 1) for the entrance.
 */
export function createStackView({ stack, template, profile, clock, viewport, reduceMotion, random }) {
  const buildCard = createCardBuilder(template);
  const animate = createAnimator(clock);

  // The top cards: those not on their way out.
  function liveCards() {
    return stack.querySelectorAll('.card:not(.leaving)');
  }

  function geometry(element) {
    const view = viewport();
    return { w: element.offsetWidth, h: element.offsetHeight, vw: view.width, vh: view.height, gy: 0 };
  }

  // While a card moves only transform and opacity change.
  function paint(element, x, y, geo) {
    const angle = Motion.rotation(x, geo.w, geo.h, geo.vw, geo.gy, profile);
    element.style.transform = `translate(${x}px,${y}px) rotate(${angle}rad)`;
  }

  // Overlays of the direction's family (diagonals show left/right).
  function showOverlays(element, direction, opacity) {
    const family = overlayFamily(direction);
    element.querySelectorAll('.overlay').forEach((overlay) => {
      overlay.style.opacity = overlay.className.endsWith(family) ? opacity : 0;
    });
  }

  // Each live card's depth; cards under the top one take no focus or clicks (their links would
  // open a card not on top).
  function layoutDepths() {
    const cards = liveCards();
    cards.forEach((card, index) => {
      card.dataset.depth = Math.min(index, profile.stack.visible);
      card.inert = index > 0;
    });
    return cards;
  }

  // Cards whose ids are in `ids` leave the stack: how many did.
  function drop(ids) {
    let dropped = 0;
    for (const element of liveCards()) {
      if (ids.has(Number(element.dataset.card))) {
        element.remove();
        dropped++;
      }
    }
    return dropped;
  }

  // An adaptive deck's pages may repeat cards this stack holds (its order changes with every
  // vote): a card already here is not added twice.
  function append(cards) {
    for (const card of cards) {
      if (!stack.querySelector('#card-' + card.id)) {
        stack.append(buildCard(card));
      }
    }
  }

  // Spring back with the profile's return spring (critically damped under reduced motion).
  function springBack(element, dx, dy, velocity, geo) {
    const parameters = reduceMotion ? { ...profile.returnSpring, dampingRatio: 1 } : profile.returnSpring;
    const spring = dampedSpring(parameters);
    const distance = Math.hypot(dx, dy);
    const speed = Math.hypot(velocity.x, velocity.y);
    const duration = spring.settleTime(distance, speed);
    showOverlays(element, '', 0);
    const frame = (t) => {
      if (!(t < duration)) {
        return false;
      }
      const x = spring.state(t, dx, velocity.x).position;
      const y = spring.state(t, dy, velocity.y).position;
      paint(element, x, y, geo);
      return true;
    };
    animate(element, frame, () => {
      element.classList.remove('dragging');
      element.removeAttribute('style');
    });
  }

  // Throw out along the release at the release speed (reduced motion: a short fade); the stack
  // moves up at once (CSS transition) and the card is removed when it is out.
  function throwOut(element, direction, velocity, dx, dy, geo) {
    const target = Motion.throwOut(dx, dy, velocity, direction, viewport().width, profile);
    const duration = reduceMotion ? profile.throwMinMs : target.durationMs;
    element.classList.add('dragging', 'leaving');
    element.style.zIndex = 99;
    showOverlays(element, direction, 1);
    const frame = (t) => {
      const k = Math.min(1, t / duration);
      paint(element, dx + (target.x - dx) * k, dy + (target.y - dy) * k, geo);
      if (reduceMotion) {
        element.style.opacity = 1 - k;
      }
      return k < 1;
    };
    animate(element, frame, () => element.remove());
  }

  // A thrown card is back on top of the stack (the caller lays the stack out, then calls comeBack).
  function restore(element) {
    // Ends a throw still in flight (its loop would remove the card).
    element.anim = 0;
    element.classList.remove('leaving');
    element.style.opacity = '';
    stack.prepend(element);
  }

  // A restored card springs in from the left (reduced motion: a short fade in place).
  function comeBack(element) {
    if (!reduceMotion) {
      springBack(element, -viewport().width, 0, { x: 0, y: 0 }, geometry(element));
      return;
    }
    element.classList.remove('dragging');
    element.removeAttribute('style');
    showOverlays(element, '', 0);
    element.animate([{ opacity: 0 }, {}], profile.throwMinMs);
  }

  // Seed 001's buttons and labels with a twist: a pressed control shrinks to profile.pressScale and
  // profile.pressSpring brings it back; the count pill does the same when the count changes. The
  // spring runs in px at the element's edge, so settleTime's half-pixel rest applies.
  function springScale(element) {
    if (reduceMotion) {
      return;
    }
    const halfWidth = element.offsetWidth / 2;
    const offset = (profile.pressScale - 1) * halfWidth;
    const spring = dampedSpring(profile.pressSpring);
    const duration = spring.settleTime(Math.abs(offset), 0);
    const frame = (t) => {
      const edge = t < duration ? spring.state(t, offset, 0).position : 0;
      element.style.transform = `scale(${1 + edge / halfWidth})`;
      return t < duration;
    };
    animate(element, frame, () => element.style.removeProperty('transform'));
  }

  // Seed 000 (classic): the cards fly in from random off-screen points over enterMs, into their slots.
  function playEntrance() {
    if (!profile.enterMs || reduceMotion) {
      return;
    }
    liveCards().forEach((card) => {
      const start = Motion.entrance(random(), random(), random());
      const transform = `translate(${start.x}px,${start.y}px) rotate(${start.rotation}rad)`;
      const from = { transform, opacity: 0 };
      card.anim = card.animate([from], profile.enterMs);
      card.anim.onfinish = () => {
        card.anim = 0;
      };
    });
  }

  return {
    liveCards, geometry, paint, showOverlays, layoutDepths, drop, append, springBack, throwOut, restore,
    comeBack, springScale, playEntrance,
  };
}
