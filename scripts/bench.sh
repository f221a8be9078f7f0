#!/usr/bin/env bash
# Benchmarks (not tests): requests per second for a group of 1,000 members, natively and in
# wasm under Node, side by side with the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
[ -f web/pkg/group_coordinator_wasm_bg.wasm ] || npm run build:wasm
native=$(cargo bench -q -p group-coordinator --bench requests 2>/dev/null | tee /dev/stderr | sed -n 's/^BENCH native requests_per_second //p')
wasm=$(node bench/wasm-requests.mjs | tee /dev/stderr | sed -n 's/^BENCH wasm requests_per_second //p')
echo
printf '%-34s %14s %14s %8s\n' "benchmark" "native req/s" "wasm req/s" "ratio"
printf '%-34s %14s %14s %7.1fx\n' "1,000-member group (all phases)" "$native" "$wasm" "$(awk -v a="$native" -v b="$wasm" 'BEGIN { print a / b }')"
