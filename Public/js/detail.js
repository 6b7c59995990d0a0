// Card detail: parallax header, accordion sections, rows fading in, a zoomable photo.
// Without JavaScript the page is complete (details/summary, plain image, back link).

/** Parallax: the header image moves at this fraction of the scroll (a visual ratio, not physics). */
const PARALLAX_RATIO = 0.4;
/** Zoom of a double tap or double click, and the pinch's bounds. */
const DOUBLE_TAP_ZOOM = 2.5;
const MAX_ZOOM = 4;

/** Distance in px between two pointer events. */
function pointerDistance(a, b) {
  return Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY);
}

function createDetailPage(page, reduceMotion) {
  const hero = page.querySelector('.hero-img');
  const sections = [...page.querySelectorAll('.accordion details')];
  let scale = 1;
  let frameRequested = false;

  // The photo's transform is the parallax shift and the zoom together (one must not drop the other).
  function place() {
    const shift = reduceMotion ? 0 : scrollY * PARALLAX_RATIO;
    hero.style.transform = `translateY(${shift}px) scale(${scale})`;
  }

  if (hero && !reduceMotion) {
    addEventListener('scroll', () => {
      if (frameRequested) {
        return;
      }
      frameRequested = true;
      requestAnimationFrame(() => {
        frameRequested = false;
        place();
      });
    }, { passive: true });
  }

  // Accordion: opening one section closes the others.
  for (const section of sections) {
    section.addEventListener('toggle', () => {
      if (!section.open) {
        return;
      }
      for (const other of sections) {
        if (other !== section) {
          other.open = false;
        }
      }
    });
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
    createPhotoZoom(hero.parentElement, () => scale, (next) => {
      scale = next;
      place();
    });
  }
}

/** Photo zoom on `box`: double tap / double click toggles, a two-finger pinch scales (1…MAX_ZOOM). */
function createPhotoZoom(box, currentScale, setScale) {
  const pointers = new Map();
  let pinchDistance = 0;
  let pinchStartScale = 1;

  function apply(next) {
    setScale(next);
    box.classList.toggle('zoomed', next > 1);
  }

  function distance() {
    const [a, b] = [...pointers.values()];
    return pointerDistance(a, b);
  }

  box.style.touchAction = 'pan-y';
  box.addEventListener('dblclick', () => {
    apply(currentScale() > 1 ? 1 : DOUBLE_TAP_ZOOM);
  });
  box.addEventListener('pointerdown', (event) => {
    pointers.set(event.pointerId, event);
    if (pointers.size == 2) {
      pinchDistance = distance();
      pinchStartScale = currentScale();
      box.style.touchAction = 'none';
    }
  });
  box.addEventListener('pointermove', (event) => {
    if (!pointers.has(event.pointerId)) {
      return;
    }
    pointers.set(event.pointerId, event);
    if (pointers.size == 2 && pinchDistance) {
      const pinched = pinchStartScale * distance() / pinchDistance;
      apply(Math.min(MAX_ZOOM, Math.max(1, pinched)));
    }
  });
  const release = (event) => {
    pointers.delete(event.pointerId);
    if (pointers.size < 2) {
      pinchDistance = 0;
      box.style.touchAction = 'pan-y';
    }
  };
  box.addEventListener('pointerup', release);
  box.addEventListener('pointercancel', release);
}

const detailPage = document.querySelector('.detail');
if (detailPage) {
  createDetailPage(detailPage, matchMedia('(prefers-reduced-motion: reduce)').matches);
}
