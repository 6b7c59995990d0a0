// Card detail: a header driven by scroll (header.js), sections as tabs (tabs.js), rows fading in, a
// gallery of zoomable photos (gallery.js). Without JavaScript the page is complete (the sections as
// an accordion, the photos paging by scroll snapping, a back link).
import { createGallery } from './gallery.js';
import { headerState } from './header.js';
import { createSectionTabs } from './tabs.js';

function createDetailPage(page, reduceMotion) {
  const heroBox = page.querySelector('.detail-hero');
  const gallery = page.querySelector('.gallery');
  const bar = page.querySelector('.detail-bar');
  const barBackground = bar.querySelector('.detail-bar-bg');
  const barContent = bar.querySelector('.detail-bar-content');
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

  // Transforms and opacity only: the gallery's parallax (each photo's zoom is its own transform), the
  // stretch of a pull at the top, and the compact bar.
  function place() {
    const state = headerState(reduceMotion ? Math.max(scrollY, 0) : scrollY, header, barBox);
    const shift = reduceMotion ? 0 : state.shift;
    if (gallery) {
      gallery.style.transform = `translateY(${shift}px)`;
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
    if (event.key === 'Escape') {
      location.href = page.querySelector('.back-to-stack').href;
    }
  });

  if (gallery) {
    createGallery(heroBox, reduceMotion);
  }
}

const detailPage = document.querySelector('.detail');
if (detailPage) {
  createDetailPage(detailPage, matchMedia('(prefers-reduced-motion: reduce)').matches);
}
