// The detail page's header driven by scroll (seed 001, section 2): its three rules as one pure
// function, so they can be checked without a page. No DOM here; detail.js applies the result.

/** Parallax: the header image moves at this fraction of the scroll (a visual ratio, not physics). */
export const PARALLAX_RATIO = 0.4;

/** The compact bar fades in over the last this many CSS px of the photo before it is gone. */
export const BAR_FADE_PX = 80;

/**
 * Where the header stands at a scroll position.
 *
 * - Pulled down at the top (`scroll` < 0, the rubber band of a touch screen), the photo stretches:
 *   `stretch` > 1 is a scale about the photo's bottom edge that fills the gap above it.
 * - Scrolled up, the photo slides away at PARALLAX_RATIO (`shift`, CSS px) while the compact bar's
 *   background fades in (`barAlpha` 0 → 1 over the last BAR_FADE_PX before the photo is gone) and
 *   its title and back button rise into place from below (`riseOffset`, CSS px, bar.height → 0).
 * - Once the photo is gone under the bar, the bar stays: alpha 1, offset 0, however far one scrolls.
 *
 * @param scroll the page's scrollY, CSS px (negative while pulled down)
 * @param header {top, height}: the photo box in page coordinates at scroll 0, CSS px
 * @param bar {top, height}: the compact bar's fixed position in the viewport, CSS px
 */
export function headerState(scroll, header, bar) {
  const stretch = scroll < 0 ? 1 + -scroll / header.height : 1;
  const shift = Math.max(scroll, 0) * PARALLAX_RATIO;
  const goneAt = header.top + header.height - bar.top - bar.height;
  const progress = Math.min(1, Math.max(0, (scroll - (goneAt - BAR_FADE_PX)) / BAR_FADE_PX));
  return { stretch, shift, barAlpha: progress, riseOffset: (1 - progress) * bar.height };
}
