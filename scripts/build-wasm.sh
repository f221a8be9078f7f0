#!/usr/bin/env bash
# The page's two wasm modules, into web/pkg (`npm run build:wasm`):
# - the full module and its glue (group_coordinator_wasm*): what the page loads (profile
#   `wasm-page`: the coordinator crate optimised for speed, see Cargo.toml);
# - the embed module (group_coordinator_embed_bg.wasm): the same crate without the console, the
#   assign widget and live mode (`--no-default-features`, see crates/wasm/src/lib.rs), optimised
#   for size (profile `wasm`), what an embedded scenario loads. It is built under the full
#   module's name, so that its imports name the same glue file, then renamed: the full module's
#   glue loads either one;
# - the built-in scenarios' recordings (web/public/recordings, scripts/record-embeds.mjs), made by
#   the full module: an embed draws and steps its scenario from one before loading a module.
#
# `--if-stale`: only when a source the module and the recordings are made from is newer than the
# last build (start.sh and test.sh use it; a second run skips the build).
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=web/pkg/.built
if [ "${1:-}" = "--if-stale" ] && [ -f "$stamp" ] && [ -z "$(find crates Cargo.toml Cargo.lock \
  scripts/build-wasm.sh scripts/record-embeds.mjs -newer "$stamp" -print -quit)" ]; then
  echo "build-wasm: web/pkg is newer than its sources"
  exit 0
fi
# What `wasm-pack build --target web --no-pack` does, without wasm-pack (so that serving the
# page needs no wasm-pack, which is a long build from source: start.sh does not install it):
# cargo, then wasm-bindgen, then the npm registry's wasm-opt at -Os (the crate's
# `package.metadata.wasm-pack` setting). The output is byte for byte wasm-pack's.
# `module PROFILE OUT_DIR [CARGO_ARGS...]`
module() {
  local profile=$1 out=$2
  shift 2
  cargo build --lib -p group-coordinator-wasm --target wasm32-unknown-unknown --profile "$profile" "$@"
  rm -rf "$out"
  wasm-bindgen "target/wasm32-unknown-unknown/$profile/group_coordinator_wasm.wasm" --out-dir "$out" --typescript --target web
  wasm-opt "$out/group_coordinator_wasm_bg.wasm" -o "$out/group_coordinator_wasm_bg.wasm" -Os
}
embed=target/pkg-embed
module wasm "$embed" --no-default-features
module wasm-page web/pkg
cp "$embed/group_coordinator_wasm_bg.wasm" web/pkg/group_coordinator_embed_bg.wasm
rm -rf "$embed"
rm -rf web/public/recordings
node scripts/record-embeds.mjs web/public/recordings
# (What `--if-stale` compares the sources with.)
touch "$stamp"
