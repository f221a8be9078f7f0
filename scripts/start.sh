#!/usr/bin/env bash
# Sets up what serving the page needs (idempotently), builds the wasm module when its sources
# changed, and serves the playground on http://127.0.0.1:5173/ with the default scenario loaded.
# The book (mdBook) is built in the background once the page is up: until it is there, the
# page's link to it opens a page saying it is being built. Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --serve
# The build and the server run on Node's current long-term-support line, as the tests do
# (scripts/node-lts.sh fetches it once from the npm registry, a few seconds).
NODE_LTS=$(bash scripts/node-lts.sh)
export PATH="$PWD/node_modules/.bin:$(dirname "$NODE_LTS"):${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

# The module and the recordings: rebuilt only when a source they are made from changed, so a
# second start serves at once.
bash scripts/build-wasm.sh --if-stale

# The book: a placeholder where it is not built yet, then the real one, in the background.
book=web/public/book
if [ ! -f "$book/leaving.html" ] || [ -n "$(find docs -newer "$book/leaving.html" -print -quit)" ]; then
  if [ ! -f "$book/leaving.html" ]; then
    mkdir -p "$book/zh"
    for page in "$book/leaving.html" "$book/zh/leaving.html"; do
      cat >"$page" <<'HTML'
<!doctype html>
<meta charset="utf-8"><meta http-equiv="refresh" content="15">
<title>The book is being built</title>
<p style="font-family: system-ui, sans-serif; margin: 2rem">The book is being built (mdBook, a
few minutes the first time); this page reloads itself and shows it when it is there.<br>
本书正在构建中（mdBook，第一次需要几分钟）；本页会自动刷新，构建完成后即可看到。</p>
HTML
    done
  fi
  mkdir -p target
  echo "start: building the book in the background (log: target/book-build.log)"
  (bash scripts/setup.sh --book && npm run build:book) >target/book-build.log 2>&1 &
fi

exec npx vite --host 127.0.0.1 --port "${PORT:-5173}"
