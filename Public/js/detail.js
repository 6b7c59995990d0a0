// Card detail: parallax header, accordion sections, rows fading in, a zoomable photo.
// Without JavaScript the page is complete (details/summary, plain image, back link).
const $ = (s, r = document) => r.querySelector(s);
const page = $('.detail'), reduce = matchMedia('(prefers-reduced-motion: reduce)').matches;
if (page) detail(page);

function detail(page) {
  const hero = $('.hero-img', page), sections = [...page.querySelectorAll('.accordion details')];
  // Parallax: the header image moves at a fraction of the scroll (a visual ratio, not physics).
  const ratio = 0.4;
  let ticking = 0, scale = 1;
  // The photo's transform is the parallax shift and the zoom together (one must not drop the other).
  const place = () => { hero.style.transform = `translateY(${reduce ? 0 : scrollY * ratio}px) scale(${scale})`; };
  if (hero && !reduce) addEventListener('scroll', () => {
    if (ticking++) return;
    requestAnimationFrame(() => { ticking = 0; place(); });
  }, { passive: true });

  // Accordion: opening one section closes the others.
  sections.forEach(d => d.addEventListener('toggle', () => { if (d.open) sections.forEach(o => o !== d && (o.open = false)); }));

  // Rows fade in as they scroll into view.
  const io = new IntersectionObserver(es => es.forEach(e => e.isIntersecting && (e.target.classList.add('in'), io.unobserve(e.target))));
  page.querySelectorAll('.fade-row').forEach(r => io.observe(r));

  // Photo zoom: double-tap / double-click toggles, two-finger pinch scales.
  if (!hero) return;
  const box = hero.parentElement, pts = new Map();
  let base = 0, start = 1;
  const apply = () => { place(); box.classList.toggle('zoomed', scale > 1); };
  box.style.touchAction = 'pan-y';
  box.addEventListener('dblclick', () => { scale = scale > 1 ? 1 : 2.5; apply(); });
  box.addEventListener('pointerdown', e => { pts.set(e.pointerId, e); if (pts.size == 2) base = dist(), start = scale, box.style.touchAction = 'none'; });
  box.addEventListener('pointermove', e => {
    if (!pts.has(e.pointerId)) return;
    pts.set(e.pointerId, e);
    if (pts.size == 2 && base) scale = Math.min(4, Math.max(1, start * dist() / base)), apply();
  });
  const up = e => { pts.delete(e.pointerId); if (pts.size < 2) base = 0, box.style.touchAction = 'pan-y'; };
  box.addEventListener('pointerup', up);
  box.addEventListener('pointercancel', up);
  function dist() { const [a, b] = [...pts.values()]; return Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY); }
  addEventListener('keydown', e => { if (e.key == 'Escape') location.href = $('.back-to-stack', page).href; });
}
