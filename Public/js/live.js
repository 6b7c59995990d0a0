// Live results for the deck's owner: the server sends a Server-Sent Event whenever the results
// change (at most once a second); the page then fetches itself again and swaps in the new
// results section, so one server-side template renders both the first page and every update.
// Without JavaScript the page is complete as served; EventSource reconnects by itself.

const section = document.querySelector("section.results[data-live]");

/** The results section of a freshly fetched copy of this page, or null. */
async function fetchResultsSection() {
  const response = await fetch(location.href, { headers: { Accept: "text/html" }, cache: "no-store" });
  if (!response.ok) {
    return null;
  }
  const html = await response.text();
  const fresh = new DOMParser().parseFromString(html, "text/html");
  return fresh.querySelector("section.results[data-live]");
}

function createLiveResults(root) {
  const badge = root.querySelector(".live-badge");
  const source = new EventSource(root.dataset.live);
  let current = root;
  let refreshing = false;
  let pending = false;
  async function refresh() {
    if (refreshing) {
      pending = true;
      return;
    }
    refreshing = true;
    const next = await fetchResultsSection().catch(() => null);
    if (next) {
      const nextBadge = next.querySelector(".live-badge");
      if (nextBadge) {
        nextBadge.hidden = false;
      }
      current.replaceWith(next);
      current = next;
    }
    refreshing = false;
    if (pending) {
      pending = false;
      refresh();
    }
  }
  source.addEventListener("open", () => {
    const shown = current.querySelector(".live-badge");
    if (shown) {
      shown.hidden = false;
    }
  });
  source.addEventListener("error", () => {
    const shown = current.querySelector(".live-badge");
    if (shown) {
      shown.hidden = true;
    }
  });
  let first = true;
  source.addEventListener("results", () => {
    // The first event repeats what the page already shows.
    if (first) {
      first = false;
      return;
    }
    refresh();
  });
  if (badge) {
    badge.hidden = true;
  }
}

if (section) {
  createLiveResults(section);
}
