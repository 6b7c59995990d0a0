// The detail page's photo gallery (seed 001: "UIScrollView and UIImageView combined into a photo
// gallery that zooms in and out"). The photos page sideways by CSS scroll snapping, also without
// scripts; here each photo zooms (pinch, double tap, double click) and pans when zoomed, never past
// its edges, and a zoomed photo dragged on past its edge pages the gallery: only then, as in iOS
// Photos. The position ("2 / 5"), the dots, the arrow keys and, with a mouse, the arrow buttons.
// Transforms only; sizes are measured by a ResizeObserver, never in a pointer or scroll handler.

/** Zoom of a double tap or double click. */
const DOUBLE_TAP_ZOOM = 2.5;

/** The pinch's upper bound; its lower bound is 1 (the photo fills its page). */
const MAX_ZOOM = 4;

/**
 * A drag past a zoomed photo's edge pages the gallery on release when it went further than this
 * fraction of the page width; a shorter one springs back to the photo.
 */
export const EDGE_PAGE_FRACTION = 0.2;

/** A photo at rest: not zoomed, not panned. */
export const UNZOOMED = Object.freeze({ scale: 1, x: 0, y: 0 });

/** Distance in px between two pointer events. */
function pointerDistance(a, b) {
  return Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY);
}

/**
 * The pan that keeps a photo zoomed by `scale` (about its centre) covering a box of `size`: each
 * offset within ±(scale − 1) × half the box, in CSS px.
 */
export function clampPan(x, y, scale, size) {
  const maxX = (scale - 1) * size.width / 2;
  const maxY = (scale - 1) * size.height / 2;
  return { scale, x: Math.min(maxX, Math.max(-maxX, x)), y: Math.min(maxY, Math.max(-maxY, y)) };
}

/**
 * How far a wanted horizontal pan `x` goes past the zoomed photo's edge, CSS px: negative past the
 * right edge (the finger moves left, towards the next photo), positive past the left edge, 0 within.
 */
export function edgeOverflow(x, scale, width) {
  const maxX = (scale - 1) * width / 2;
  return x - Math.min(maxX, Math.max(-maxX, x));
}

/**
 * The page a gallery settles on after a drag of `overflow` CSS px past a zoomed photo's edge: the
 * next or previous one when the drag went further than EDGE_PAGE_FRACTION of `width`, else the same;
 * always within 0…count − 1.
 */
export function pageAfterEdgeDrag(index, overflow, width, count) {
  const step = Math.abs(overflow) > width * EDGE_PAGE_FRACTION ? -Math.sign(overflow) : 0;
  return Math.min(count - 1, Math.max(0, index + step));
}

/**
 * Zoom and pan of one photo in its page `box`. A double tap or double click toggles between 1 and
 * DOUBLE_TAP_ZOOM; two fingers pinch (1…MAX_ZOOM); one finger or the mouse pans a zoomed photo.
 * Unzoomed, the browser keeps the finger (touch-action pan-x pan-y: the gallery pages, the page
 * scrolls); zoomed, every move is the photo's (none), and a horizontal move past the photo's edge
 * goes to `edges.drag(overflow)` while the finger is down and `edges.release(overflow)` after.
 */
function createPhotoZoom(box, edges) {
  const photo = box.querySelector('.hero-img');
  const pointers = new Map();
  let size = { width: box.clientWidth, height: box.clientHeight };
  let zoom = UNZOOMED;
  let pinch = null;
  let pan = null;

  new ResizeObserver(() => {
    size = { width: box.clientWidth, height: box.clientHeight };
  }).observe(box);

  function apply(next) {
    zoom = next;
    photo.style.transform = `translate(${next.x}px, ${next.y}px) scale(${next.scale})`;
    box.classList.toggle('zoomed', next.scale > 1);
    box.style.touchAction = next.scale > 1 ? 'none' : 'pan-x pan-y';
  }

  function spread() {
    const [first, second] = [...pointers.values()];
    return pointerDistance(first, second);
  }

  box.style.touchAction = 'pan-x pan-y';
  box.addEventListener('dblclick', () => {
    const toggled = zoom.scale > 1 ? UNZOOMED : { scale: DOUBLE_TAP_ZOOM, x: 0, y: 0 };
    apply(toggled);
  });

  box.addEventListener('pointerdown', (event) => {
    pointers.set(event.pointerId, event);
    if (pointers.size === 2) {
      pan = null;
      pinch = { spread: spread(), start: zoom };
      return;
    }
    if (pointers.size === 1 && zoom.scale > 1) {
      box.setPointerCapture(event.pointerId);
      pan = { pointerId: event.pointerId, x: event.clientX, y: event.clientY, start: zoom, overflow: 0 };
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
      const overflow = edgeOverflow(x, pan.start.scale, size.width);
      if (overflow !== 0 || pan.overflow !== 0) {
        pan.overflow = overflow;
        edges.drag(overflow);
      }
    }
  });

  const release = (event) => {
    pointers.delete(event.pointerId);
    if (pointers.size < 2) {
      pinch = null;
    }
    if (pan && event.pointerId === pan.pointerId) {
      if (pan.overflow !== 0) {
        edges.release(pan.overflow);
      }
      pan = null;
    }
  };
  box.addEventListener('pointerup', release);
  box.addEventListener('pointercancel', release);

  return {
    /** Unzooms the photo unless a finger or the mouse holds it. */
    reset() {
      if (zoom.scale > 1 && pointers.size === 0) {
        apply(UNZOOMED);
      }
    },
  };
}

/**
 * The gallery in `hero` (the `.gallery` scroll container of `.gallery-page` figures). Returns
 * nothing; wires zoom on every photo, and with more than one photo the position, dots, keys and
 * buttons. Under reduced motion every page change is instant.
 */
export function createGallery(hero, reduceMotion) {
  const track = hero.querySelector('.gallery');
  const pages = [...track.querySelectorAll('.gallery-page')];
  const count = pages.length;
  const position = hero.querySelector('.gallery-count');
  const dots = [...hero.querySelectorAll('.gallery-dots a')];
  const previous = hero.querySelector('.gallery-prev');
  const next = hero.querySelector('.gallery-next');
  const behavior = reduceMotion ? 'instant' : 'smooth';
  let current = 0;
  // CSS px, fractional (a rounded width drifts by a pixel a page).
  let pageWidth = track.getBoundingClientRect().width;
  let settleTimer = 0;
  let unzoomTimer = 0;

  new ResizeObserver((entries) => {
    pageWidth = entries[0].contentRect.width;
  }).observe(track);

  function showPosition() {
    if (count < 2) {
      return;
    }
    position.textContent = `${current + 1} / ${count}`;
    dots.forEach((dot, index) => {
      dot.toggleAttribute('aria-current', index === current);
    });
    previous.disabled = current === 0;
    next.disabled = current === count - 1;
  }

  function pageTo(index) {
    const target = Math.min(count - 1, Math.max(0, index));
    track.scrollTo({ left: target * pageWidth, behavior });
  }

  // Snapping waits while a zoomed photo is dragged past its edge (a snapped container would pull
  // every scroll set by hand back to the page), and comes back once the gallery has settled.
  function stopSnapping() {
    clearTimeout(settleTimer);
    track.classList.add('paging');
  }

  function snapAgain() {
    track.classList.remove('paging');
  }

  // Photos paged away unzoom once the gallery rests (as in iOS Photos), not while they slide.
  function unzoomOthers() {
    zooms.forEach((zoom, index) => {
      if (index !== current) {
        zoom.reset();
      }
    });
  }

  function settled() {
    snapAgain();
    unzoomOthers();
  }

  const zooms = pages.map((page) => createPhotoZoom(page, {
    drag(overflow) {
      stopSnapping();
      track.scrollLeft = current * pageWidth - overflow;
    },
    release(overflow) {
      pageTo(pageAfterEdgeDrag(current, overflow, pageWidth, count));
      settleTimer = setTimeout(snapAgain, reduceMotion ? 0 : 600);
    },
  }));

  // The shown photo is the one at least half in view. The others unzoom when the gallery rests: at
  // `scrollend`, or a moment after the change where that event is missing.
  const visibility = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const index = pages.indexOf(entry.target);
      if (entry.intersectionRatio >= 0.5 && index !== current) {
        current = index;
        showPosition();
        clearTimeout(unzoomTimer);
        unzoomTimer = setTimeout(unzoomOthers, 700);
      }
    }
  }, { root: track, threshold: 0.5 });
  for (const page of pages) {
    visibility.observe(page);
  }

  if (count < 2) {
    return;
  }
  track.addEventListener('scrollend', settled);
  track.addEventListener('keydown', (event) => {
    const targets = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: count - 1 };
    if (event.key in targets) {
      event.preventDefault();
      pageTo(targets[event.key]);
    }
  });
  dots.forEach((dot, index) => {
    dot.addEventListener('click', (event) => {
      event.preventDefault();
      pageTo(index);
    });
  });
  previous.addEventListener('click', () => {
    pageTo(current - 1);
  });
  next.addEventListener('click', () => {
    pageTo(current + 1);
  });
  previous.hidden = false;
  next.hidden = false;
  showPosition();
}
