// Card detail: a header driven by scroll (header.js), accordion sections, rows fading in, a zoomable
// photo. Without JavaScript the page is complete (details/summary, plain image, back link).
import { headerState } from './header.js';
import { createSectionTabs } from './tabs.js';

/** Zoom of a double tap or double click, and the pinch's bounds. */
const DOUBLE_TAP_ZOOM = 2.5;
const MAX_ZOOM = 4;

/** Distance in px between two pointer events. */
function pointerDistance(a, b) {
  return Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY);
}

function createDetailPage(page, reduceMotion) {
  const heroBox = page.querySelector('.detail-hero');
  const hero = page.querySelector('.hero-img');
  const bar = page.querySelector('.detail-bar');
  const barBackground = bar.querySelector('.detail-bar-bg');
  const barContent = bar.querySelector('.detail-bar-content');
  // The photo's zoom and, when zoomed, how far it is panned (CSS px, from its centred position).
  let zoom = { scale: 1, x: 0, y: 0 };
  let frameRequested = false;
  // Geometry the header rules need, measured when it changes, never in the scroll handler.
  let header = { top: 0, height: 1 };
  let barBox = { top: 0, height: 0 };

  function measure() {
    const heroRect = heroBox.getBoundingClientRect();
    const barRect = bar.getBoundingClientRect();
    header = { top: heroRect.top + scrollY, height: heroRect.height };
    barBox = { top: barRect.top, height: barRect.height };
  }

  // Transforms and opacity only: the photo's parallax, pan and zoom together (none may drop another),
  // the stretch of a pull at the top, and the compact bar.
  function place() {
    const state = headerState(reduceMotion ? Math.max(scrollY, 0) : scrollY, header, barBox);
    const shift = reduceMotion ? 0 : state.shift;
    if (hero) {
      hero.style.transform = `translate(${zoom.x}px, ${shift + zoom.y}px) scale(${zoom.scale})`;
    }
    heroBox.style.transform = state.stretch > 1 ? `scale(${state.stretch})` : '';
    barBackground.style.opacity = state.barAlpha;
    barContent.style.transform = `translateY(${reduceMotion ? 0 : state.riseOffset}px)`;
    barContent.style.opacity = reduceMotion ? state.barAlpha : 1;
    bar.classList.toggle('shown', state.barAlpha > 0);
  }

  function placeNextFrame() {
    if (frameRequested) {
      return;
    }
    frameRequested = true;
    requestAnimationFrame(() => {
      frameRequested = false;
      place();
    });
  }

  bar.hidden = false;
  measure();
  new ResizeObserver(() => {
    measure();
    placeNextFrame();
  }).observe(heroBox);
  addEventListener('scroll', placeNextFrame, { passive: true });
  place();

  // With scripts the sections are tabs (tabs.js); without, the accordion of <details>.
  const accordion = page.querySelector('.accordion');
  if (accordion) {
    createSectionTabs(accordion, reduceMotion);
  }

  // Rows fade in as they scroll into view.
  const fadeIn = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting) {
        entry.target.classList.add('in');
        fadeIn.unobserve(entry.target);
      }
    }
  });
  for (const row of page.querySelectorAll('.fade-row')) {
    fadeIn.observe(row);
  }

  addEventListener('keydown', (event) => {
    if (event.key == 'Escape') {
      location.href = page.querySelector('.back-to-stack').href;
    }
  });

  if (hero) {
    createPhotoZoom(hero.parentElement, () => zoom, (next) => {
      zoom = next;
      place();
    });
  }
}

/**
 * The pan that keeps a photo zoomed by `scale` (about its centre) covering a box of `size`: each
 * offset within ±(scale − 1) × half the box, in CSS px.
 */
function clampPan(x, y, scale, size) {
  const maxX = (scale - 1) * size.width / 2;
  const maxY = (scale - 1) * size.height / 2;
  return { scale, x: Math.min(maxX, Math.max(-maxX, x)), y: Math.min(maxY, Math.max(-maxY, y)) };
}

/**
 * Photo zoom on `box`: a double tap or double click toggles between 1 and DOUBLE_TAP_ZOOM, a
 * two-finger pinch scales (1…MAX_ZOOM), one finger or the mouse pans a zoomed photo, never past its
 * edges. Unzoomed, a finger on the photo still scrolls the page (touch-action pan-y); zoomed, every
 * touch move is the photo's (none). The box's size is read when it changes, not in the handlers.
 */
function createPhotoZoom(box, current, set) {
  const pointers = new Map();
  let size = { width: box.clientWidth, height: box.clientHeight };
  let pinch = null;
  let pan = null;

  new ResizeObserver(() => {
    size = { width: box.clientWidth, height: box.clientHeight };
  }).observe(box);

  function apply(next) {
    set(next);
    box.classList.toggle('zoomed', next.scale > 1);
    box.style.touchAction = next.scale > 1 ? 'none' : 'pan-y';
  }

  function spread() {
    const [first, second] = [...pointers.values()];
    return pointerDistance(first, second);
  }

  box.style.touchAction = 'pan-y';
  box.addEventListener('dblclick', () => {
    const zoomed = current().scale > 1;
    apply(zoomed ? { scale: 1, x: 0, y: 0 } : { scale: DOUBLE_TAP_ZOOM, x: 0, y: 0 });
  });

  box.addEventListener('pointerdown', (event) => {
    pointers.set(event.pointerId, event);
    if (pointers.size === 2) {
      pan = null;
      pinch = { spread: spread(), start: current() };
      return;
    }
    const zoom = current();
    if (pointers.size === 1 && zoom.scale > 1) {
      box.setPointerCapture(event.pointerId);
      pan = { pointerId: event.pointerId, x: event.clientX, y: event.clientY, start: zoom };
    }
  });

  box.addEventListener('pointermove', (event) => {
    if (!pointers.has(event.pointerId)) {
      return;
    }
    pointers.set(event.pointerId, event);
    if (pinch && pointers.size === 2) {
      const scale = Math.min(MAX_ZOOM, Math.max(1, pinch.start.scale * spread() / pinch.spread));
      apply(clampPan(pinch.start.x, pinch.start.y, scale, size));
      return;
    }
    if (pan && event.pointerId === pan.pointerId) {
      const x = pan.start.x + event.clientX - pan.x;
      const y = pan.start.y + event.clientY - pan.y;
      apply(clampPan(x, y, pan.start.scale, size));
    }
  });

  const release = (event) => {
    pointers.delete(event.pointerId);
    if (pointers.size < 2) {
      pinch = null;
    }
    if (pan && event.pointerId === pan.pointerId) {
      pan = null;
    }
  };
  box.addEventListener('pointerup', release);
  box.addEventListener('pointercancel', release);
}

const detailPage = document.querySelector('.detail');
if (detailPage) {
  createDetailPage(detailPage, matchMedia('(prefers-reduced-motion: reduce)').matches);
}
