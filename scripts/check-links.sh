#!/usr/bin/env bash
# Checks every link of the built books (web/dist/book, English and Chinese) with linkinator, a
# maintained link checker: pages, scripts, styles, images and the embed script they load.
# Anchors are checked on the sources by crates/coordinator/tests/docs_links.rs. rustdoc's own
# pages and links leaving the site are not this project's; 404.html is written for a host that
# serves it at the site's root.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t pages < <(cd web/dist && find book -name '*.html' -not -path '*/rustdoc/*' -not -name 404.html | sort)
npx linkinator "${pages[@]}" --server-root web/dist \
  --skip '^https?://(?!localhost|127\.0\.0\.1)' --skip '/rustdoc/' --concurrency 8
