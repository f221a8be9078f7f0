#!/usr/bin/env bash
# Sets up (idempotently), builds the wasm module and serves the playground on
# http://127.0.0.1:5173/ with the default example loaded. Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
npm run build:wasm
npm run build:book
exec npx vite --host 127.0.0.1 --port "${PORT:-5173}"
