// Marks the page as scripted so CSS can use JS-only affordances.
document.documentElement.classList.replace('no-js', 'js');

// An image that fails (a 404, a broken file) is hidden, so the accent placeholder under it shows
// instead of the browser's broken-image icon. Module scripts run after parsing: images that failed
// before are found by their state, later ones by the error event (it does not bubble: captured).
function hideBroken(image) {
  image.hidden = true;
}

for (const image of document.images) {
  if (image.complete && image.naturalWidth === 0 && image.getAttribute('src')) {
    hideBroken(image);
  }
}

addEventListener('error', (event) => {
  if (event.target instanceof HTMLImageElement) {
    hideBroken(event.target);
  }
}, true);
