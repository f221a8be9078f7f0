#!/usr/bin/env bash
# Benchmarks (not tests), one command: the coordinator's request rate for a 1,000-member group,
# what group-broker's wire front end adds per request (and 100 kafka-python consumers through it),
# the simulator's speed (simulated time per wall second, 10/100/1,000 consumers, both protocols;
# and the page's "Your group" comparison of a 300-consumer group),
# the page's download sizes (raw, gzip, brotli) and what the module's code is made of, time travel
# (step back, scrub, fork on long runs, and the checkpoints' memory), and the
# assignors over Kafka's JMH grid, natively, in wasm under Node (the JSON form `assign` and the
# compact form `assignCompact`; the compact form also under Node's current LTS line), in wasm in
# headless Chromium (the compact form) and kafka-python on the same inputs, side by side with ratios,
# and over Kafka's Java figures where the reference has them. Pass filters to narrow the
# assignor grid, e.g. `bash scripts/bench.sh ,1000,10,`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
out=bench/out; mkdir -p "$out"
npm run build:wasm >/dev/null
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv && .venv/bin/pip install -q kafka-python==3.0.12; fi
cargo build -q --release -p group-coordinator --example peer_io

echo "== what the page (and an embed) downloads: raw, gzip, brotli"
npx vite build >/dev/null
node bench/sizes.mjs
echo "== how long a reader waits: navigation to the first drawn scenario, the page and an embed"
node bench/first-draw.mjs
echo "== what the module's code is made of (function bodies by kind; a stand-in for twiggy)"
# The same build with its function names kept: wasm-bindgen, then wasm-opt as wasm-pack runs it, plus -g.
wasm-bindgen --target web --out-dir "$out/named" target/wasm32-unknown-unknown/wasm-page/group_coordinator_wasm.wasm
wasm-opt -Os -g --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
  "$out/named/group_coordinator_wasm_bg.wasm" -o "$out/named/module.wasm"
python3 bench/module_breakdown.py "$out/named/module.wasm"

echo "== requests per second, one group of 1,000 members"
native=$(cargo bench -q -p group-coordinator --bench requests 2>/dev/null | tee /dev/stderr | sed -n 's/^BENCH native requests_per_second //p')
wasm=$(node bench/wasm-requests.mjs | tee /dev/stderr | sed -n 's/^BENCH wasm requests_per_second //p')
printf '%-34s %14s %14s %8s\n' "benchmark" "native req/s" "wasm req/s" "ratio"
printf '%-34s %14s %14s %7.1fx\n' "1,000-member group (all phases)" "$native" "$wasm" "$(awk -v a="$native" -v b="$wasm" 'BEGIN { print a / b }')"

echo; echo "== KIP-848: ConsumerGroupHeartbeats per second, one consumer group of 1,000 members (native, then wasm)"
cargo bench -q -p group-coordinator --bench consumer_heartbeats 2>/dev/null
node bench/wasm-consumer-heartbeats.mjs

echo; echo "== simulator: simulated seconds per wall-clock second, one simulated hour of a large group"
cargo bench -q -p group-simulator --bench simulation 2>/dev/null | tee "$out/sim-native.txt"
node bench/wasm-simulation.mjs | tee "$out/sim-wasm.txt"
printf '%-14s %16s %16s %8s\n' "consumers" "native sim-s/s" "wasm sim-s/s" "ratio"
join <(awk '/^BENCH native/ { print $3, $4 }' "$out/sim-native.txt" | sort) \
     <(awk '/^BENCH wasm/ { print $3, $4 }' "$out/sim-wasm.txt" | sort) | sort -n |
  awk '{ printf "%-14s %16s %16s %7.1fx\n", $1, $2, $3, $2 / $3 }'
echo "targets (issue 36): one simulated hour of 100 consumers within 0.3 s in wasm, of 1,000 within 5 s, wasm within 1.5x of native"
awk '/^BENCH wasm (100|1000)-(classic|consumer) / { w = $0; sub(/.*wall /, "", w); sub(/ s,.*/, "", w);
  n = substr($3, 1, index($3, "-") - 1); p = substr($3, index($3, "-") + 1); t = (n == 1000 ? 5 : 0.3)
  printf "  %s consumers, %s protocol, trace kept, wasm: %s s (target %s s: %s)\n", n, p, w, t, (w + 0 <= t ? "met" : "not met") }' "$out/sim-wasm.txt"

echo; echo "== the page's \"Your group\" comparison: a pasted 300-consumer describe, each option it compares, in wasm"
# The page's own what-if code (TypeScript, which Node's current LTS line runs as it is).
"$(bash scripts/node-lts.sh)" bench/wasm-your-group.mjs

echo; echo "== group-broker: what the wire front end adds to the model (Heartbeats over loopback), and 100 kafka-python consumers"
cargo bench -q -p group-broker --bench front_end 2>/dev/null
cargo build -q --release -p group-broker
.venv/bin/python bench/broker_clients.py target/release/group-broker 2>/dev/null

echo; echo "== time travel (median ms): a step back at the end, a scrub to the middle, a fork in the middle"
cargo bench -q -p group-simulator --bench player 2>/dev/null | tee "$out/player-native.txt"
node bench/wasm-player.mjs | tee "$out/player-wasm.txt"
printf '%-10s %-18s %12s %12s %8s\n' "run" "move" "native ms" "wasm ms" "ratio"
join <(awk '/^BENCH native player/ && $5 != "steps" { print $4 "/" $5, $6 }' "$out/player-native.txt" | sort) \
     <(awk '/^BENCH wasm player/ && $5 != "steps" { print $4 "/" $5, $6 }' "$out/player-wasm.txt" | sort) |
  awk '{ split($1, k, "/"); printf "%-10s %-18s %12s %12s %7.1fx\n", k[1], k[2], $2, $3, $3 / $2 }'
echo; echo "== following a broker's trace: one client's heartbeats in batches of 2,000 lines (ms)"
printf '%-8s %-16s %12s %12s %8s\n' "lines" "what" "native ms" "wasm ms" "ratio"
join <(awk '/^BENCH native follow/ { print $4 "/first-batch", $5; print $4 "/last-batch", $6; print $4 "/total", $7 }' "$out/player-native.txt" | sort) \
     <(awk '/^BENCH wasm follow/ { print $4 "/first-batch", $5; print $4 "/last-batch", $6; print $4 "/total", $7 }' "$out/player-wasm.txt" | sort) |
  awk '{ split($1, k, "/"); printf "%-8s %-16s %12s %12s %7.1fx\n", k[1], k[2], $2, $3, $3 / $2 }'

echo; echo "== assignors (median ms per assignment)"
cargo bench -q -p group-coordinator --bench assignors -- "$@" > "$out/native.txt" 2>/dev/null
node bench/wasm-assignors.mjs "$@" > "$out/wasm.txt"
# The compact form again under Node's current long-term-support line (scripts/node-lts.sh).
"$(bash scripts/node-lts.sh)" bench/wasm-assignors.mjs --compact-only "$@" > "$out/wasm-lts.txt"
node bench/chromium-assignors.mjs "$@" > "$out/chromium.txt"
PYTHONHASHSEED=0 .venv/bin/python compare/kafka_python_bench.py target/release/examples/peer_io "$@" > "$out/kafka-python.txt"
python3 bench/report.py "$out/native.txt" "$out/wasm.txt" "$out/kafka-python.txt" "$out/chromium.txt" "$out/wasm-lts.txt"

echo; echo "== server assignors (KIP-848; median ms per target assignment; Java: docs/src/reference/assignors.md#java-figures)"
cargo bench -q -p group-coordinator --bench server_assignors -- "$@" > "$out/server-native.txt" 2>/dev/null
node bench/wasm-server-assignors.mjs "$@" > "$out/server-wasm.txt"
python3 bench/report_server.py "$out/server-native.txt" "$out/server-wasm.txt"
