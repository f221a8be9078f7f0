#!/usr/bin/env bash
# Builds the npm package for documentation sites (npm/): the built page without the book as
# site/, the wasm module and its JavaScript API as pkg/; then packs it into target/npm/.
# Needs `npm run build` (or build:wasm and vite build) first.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf npm/site npm/pkg
mkdir -p npm/site npm/pkg target/npm
cp -r web/dist/. npm/site/
rm -rf npm/site/book
cp web/pkg/group_coordinator_wasm.js web/pkg/group_coordinator_wasm.d.ts web/pkg/group_coordinator_wasm_bg.wasm npm/pkg/
# The glue imports the module's inline JavaScript (crates/wasm/src/compact.rs) from snippets/.
cp -r web/pkg/snippets npm/pkg/
cp LICENSE npm/ 2>/dev/null || true
(cd npm && npm pack --silent --pack-destination ../target/npm)
