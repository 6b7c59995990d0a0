#!/usr/bin/env bash
# Size of the page scripts against the 4,096-byte budget of issue 4: each of Public/js/physics.js and
# Public/js/deck.js is minified with `esbuild --minify`, then gzip -9'd; the budget applies to the
# minified files concatenated and gzipped together. Also printed, for comparison: what the deck page
# strictly needs (deck.js bundled with the parts of physics.js it imports, the history page's maths
# tree-shaken away). Prints the figures; with STRICT=1 it exits 1 when over budget (the budget is not
# met: see README), and 2 without esbuild.
set -euo pipefail
cd "$(dirname "$0")/.."
budget=4096
esbuild=${ESBUILD:-esbuild}
command -v "$esbuild" >/dev/null || { echo "js-size: esbuild not found (apt-get install esbuild)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/all.js"
for f in Public/js/physics.js Public/js/deck.js; do
  [ -f "$f" ] || continue
  "$esbuild" --minify --log-level=warning "$f" > "$tmp/one.js"
  printf '%-22s %6d bytes minified, %5d bytes gzip -9\n' "$f" "$(wc -c < "$tmp/one.js")" "$(gzip -9 < "$tmp/one.js" | wc -c)"
  cat "$tmp/one.js" >> "$tmp/all.js"
done
total=$(gzip -9 < "$tmp/all.js" | wc -c)
"$esbuild" --bundle --minify --format=esm --log-level=warning Public/js/deck.js > "$tmp/bundle.js"
printf '%-22s %6d bytes minified, %5d bytes gzip -9 (deck.js + what it imports)\n' "deck page bundle" "$(wc -c < "$tmp/bundle.js")" "$(gzip -9 < "$tmp/bundle.js" | wc -c)"
printf '%-22s %6d bytes minified, %5d bytes gzip -9 (budget %d, %d left)\n' together "$(wc -c < "$tmp/all.js")" "$total" "$budget" "$((budget - total))"
if [ "$total" -gt "$budget" ]; then
  echo "js-size: over the $budget-byte budget by $((total - budget)) bytes" >&2
  if [ "${STRICT:-0}" = 1 ]; then exit 1; fi
fi
