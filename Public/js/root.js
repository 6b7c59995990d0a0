// The sub-path the server is served under (`--base-path`): the layout names it in `data-root`
// (`/` at the root, `/decks/` under a base path; the server prefixes it as it renders the page).
// Paths the scripts build or read from the API (`/api/…`, a card's `/images/….png`) go through
// `rooted`; links the page itself holds are already prefixed.

// `path` under `root` when it is root-relative (`/api/v1/x` → `/decks/api/v1/x`); anything else
// (an https URL, a relative path, empty) as it is.
export function rootedPath(root, path) {
  if (!path.startsWith('/') || path.startsWith('//')) {
    return path;
  }
  return root.replace(/\/$/, '') + path;
}

// `rootedPath` with the page's own root.
export function rooted(path) {
  return rootedPath(document.documentElement.dataset.root || '/', path);
}
