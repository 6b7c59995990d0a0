// Seed 001's "UIScrollView and ContainerView make a tab menu": the detail page's sections become tabs
// whose pages scroll horizontally under the finger (scroll snapping) and follow the tab bar, with an
// underline that tracks the scroll position. Without scripts the sections stay an accordion of
// <details> (complete, and the page's no-JS form); with scripts every width gets the tabs (two or
// three short labels fit a 320 px phone). Tab semantics: role=tablist/tab/tabpanel, arrow keys, Home, End.

/** Builds the tabs in place of `accordion` (a section of <details>, each with a <summary> label). */
export function createSectionTabs(accordion, reduceMotion) {
  const sections = [...accordion.querySelectorAll(':scope > details')];
  const tabList = document.createElement('div');
  const underline = document.createElement('span');
  const pages = document.createElement('div');
  const tabs = [];
  let current = 0;
  let frameRequested = false;
  // The page a tab's smooth scroll is heading to: until the scroll reaches it, the pages it passes
  // do not take the selection back (the chosen tab would flicker back to the one left). A finger or
  // a wheel on the pages takes over.
  let heading = null;
  // Tab geometry for the underline, measured when it changes, never in the scroll handler.
  let tabBoxes = [];
  let pageWidth = 1;

  tabList.className = 'tab-list';
  tabList.setAttribute('role', 'tablist');
  underline.className = 'tab-underline';
  underline.setAttribute('aria-hidden', 'true');
  pages.className = 'tab-pages';

  sections.forEach((section, index) => {
    const summary = section.querySelector('summary');
    const tab = document.createElement('button');
    const page = document.createElement('div');
    const id = `tab-page-${index}`;
    tab.type = 'button';
    tab.className = 'tab';
    tab.id = `tab-${index}`;
    tab.textContent = summary.textContent;
    tab.setAttribute('role', 'tab');
    tab.setAttribute('aria-controls', id);
    tab.addEventListener('click', () => select(index, true));
    page.className = 'tab-page';
    page.id = id;
    page.setAttribute('role', 'tabpanel');
    page.setAttribute('aria-labelledby', tab.id);
    summary.remove();
    page.append(...section.childNodes);
    tabs.push(tab);
    tabList.append(tab);
    pages.append(page);
  });
  tabList.append(underline);
  accordion.replaceChildren(tabList, pages);
  accordion.classList.add('tabs');

  function measure() {
    tabBoxes = tabs.map((tab) => ({ left: tab.offsetLeft, width: tab.offsetWidth }));
    pageWidth = pages.clientWidth || 1;
  }

  // The underline between the tabs of the two pages in view, by the fraction scrolled between them.
  function placeUnderline(position) {
    const from = tabBoxes[Math.floor(position)] || tabBoxes[0];
    const to = tabBoxes[Math.ceil(position)] || from;
    const fraction = position - Math.floor(position);
    const left = from.left + (to.left - from.left) * fraction;
    const width = from.width + (to.width - from.width) * fraction;
    underline.style.transform = `translateX(${left}px) scaleX(${width})`;
  }

  function mark(index) {
    current = index;
    tabs.forEach((tab, other) => {
      const selected = other === index;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
    });
  }

  function select(index, scroll) {
    mark(index);
    if (scroll) {
      heading = Math.abs(pages.scrollLeft - index * pageWidth) < 1 ? null : index;
      pages.scrollTo({ left: index * pageWidth, behavior: reduceMotion ? 'auto' : 'smooth' });
    }
  }

  // The scroll offset is the one value read here (the pages' width comes from measure()).
  pages.addEventListener('scroll', () => {
    if (frameRequested) {
      return;
    }
    frameRequested = true;
    requestAnimationFrame(() => {
      frameRequested = false;
      const position = pages.scrollLeft / pageWidth;
      placeUnderline(position);
      const nearest = Math.round(position);
      if (heading !== null) {
        if (nearest === heading) {
          heading = null;
        }
        return;
      }
      if (nearest !== current) {
        mark(nearest);
      }
    });
  }, { passive: true });
  for (const type of ['pointerdown', 'wheel']) {
    pages.addEventListener(type, () => {
      heading = null;
    }, { passive: true });
  }

  tabList.addEventListener('keydown', (event) => {
    const moves = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: tabs.length - 1 };
    if (!(event.key in moves)) {
      return;
    }
    event.preventDefault();
    const next = (moves[event.key] + tabs.length) % tabs.length;
    select(next, true);
    tabs[next].focus();
  });

  new ResizeObserver(() => {
    measure();
    placeUnderline(current);
  }).observe(accordion);
  measure();
  mark(0);
  placeUnderline(0);
}
