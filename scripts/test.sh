#!/usr/bin/env bash
# Sets up (idempotently) and runs every test: lints, the core's native tests (unit, conformance,
# property), the no_std build, real Kafka clients against group-broker, the wasm tests in Node and headless Chromium, the TypeScript
# checks and unit tests, and the end-to-end browser tests of the built page.
#
# `--quick`: the loop for every change (a few minutes on a warm machine): format and lints, the
# native tests (unit, conformance, golden traces), the TypeScript checks and vitest, and one
# browser smoke test of the built page (the wasm module rebuilt only if its sources changed).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never NO_COLOR=1
t0=$SECONDS
# Each step's name and start, for the table of step times printed at the end (the next slowdown
# is seen in the run where it happens).
STEP_NAMES=(); STEP_STARTS=()
step() {
  STEP_NAMES+=("$*"); STEP_STARTS+=("$SECONDS")
  echo; echo "=== [$((SECONDS - t0))s] $*"
}
step_table() {
  echo; echo "=== step times"
  local i end
  for i in "${!STEP_NAMES[@]}"; do
    end=${STEP_STARTS[$((i + 1))]:-$SECONDS}
    printf '%6ss  %s\n' "$((end - STEP_STARTS[i]))" "${STEP_NAMES[$i]:0:90}"
  done
  printf '%6ss  %s\n' "$((SECONDS - t0))" "in all"
}

# The browser tests' summary: Playwright's count lines ("83 passed (4.1m)", "1 failed", ...).
e2e_summary() {
  grep -E '^ +[0-9]+ (passed|failed|flaky|skipped|interrupted|did not run)' "$1" | sed 's/^ *//'
}

step "setup"
bash scripts/setup.sh --browser
# The tests run on Node's current long-term-support line (fetched once from the npm registry,
# scripts/node-lts.sh); the machine's Node (Debian's 20) stays USER_NODE, on which the npm
# package's API is checked too.
USER_NODE=$(command -v node)
NODE_LTS=$(bash scripts/node-lts.sh)
export USER_NODE
# npm's wasm-opt first on PATH (Debian's binaryen breaks wasm-bindgen output)
export PATH="$PWD/node_modules/.bin:$(dirname "$NODE_LTS"):${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
echo "node $(node --version) (the machine's: $("$USER_NODE" --version))"

if [ "${1:-}" = "--quick" ]; then
  step "format and lints"
  cargo fmt --all -- --check
  cargo clippy --workspace --all-targets -- -D warnings
  step "native tests"
  cargo test --workspace
  step "wasm build for the page (if its sources changed)"
  bash scripts/build-wasm.sh --if-stale
  step "TypeScript: format and lint (Biome), typecheck, unit tests (vitest, Node), vite build"
  npx biome ci .
  npx tsc --noEmit
  npx vitest run
  npx vite build
  step "end-to-end smoke test: the built page in Chromium"
  e2e_log=$(mktemp)
  npx playwright test -g "one click from the picker" | tee "$e2e_log"
  step_table
  echo; e2e_summary "$e2e_log"
  rm -f "$e2e_log"
  exit 0
fi

step "format and lints"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy -p group-coordinator-wasm --target wasm32-unknown-unknown --all-targets -- -D warnings

step "no_std: the core and the simulator build for a target without std"
cargo build -p group-coordinator --no-default-features --target thumbv7em-none-eabihf
cargo build -p group-simulator --target thumbv7em-none-eabihf

step "native tests (core: unit, conformance, property; simulator: golden traces, behaviour, random worlds; doc-tests)"
cargo test --workspace

step "the core crate packages for a registry (cargo package, verified against its packaged dependency)"
cargo package -q -p group-coordinator-json -p group-coordinator --allow-dirty

step "side by side with kafka-python (the peer's own assignors and codecs, from PyPI)"
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c 'import kafka; assert kafka.__version__ == "3.0.12"' 2>/dev/null; then
  python3 -m venv .venv
  .venv/bin/pip install -q kafka-python==3.0.12
fi
cargo build -q --release -p group-coordinator --example peer_io
# kafka-python's sticky assignor iterates Python sets: fix the hash seed for repeatable runs.
PYTHONHASHSEED=0 .venv/bin/python compare/kafka_python.py target/release/examples/peer_io 1000

step "topic regexes side by side with RE2/J 1.7 (the engine Kafka 4.0 resolves SubscribedTopicRegex with)"
bash bench/re2j/check.sh 20000

step "live: real Kafka clients (kafka-python, confluent-kafka/librdkafka classic and consumer protocol, KafkaJS) through the seed's cases against group-broker"
if ! .venv/bin/python -c 'import confluent_kafka; assert confluent_kafka.version()[0] == "2.16.1"' 2>/dev/null; then
  .venv/bin/pip install -q confluent-kafka==2.16.1
fi
cargo build -q -p group-broker
# Two runs side by side (each case has its own broker on its own port; most of a case is
# waiting on the clients' timers), each one's output after it ends.
live_cases() {
  GROUP_BROKER=target/debug/group-broker timeout 600 .venv/bin/python -u live/cases.py "$@"
}
live_a=$(mktemp); live_b=$(mktemp)
live_cases kafka-python kafkajs static-and-timeout regex >"$live_a" 2>&1 &
pid_a=$!
live_cases confluent-kafka consumer-protocol wire-edges group-configs failover >"$live_b" 2>&1 &
pid_b=$!
live_ok=0
wait "$pid_a" || live_ok=1
wait "$pid_b" || live_ok=1
cat "$live_a" "$live_b"
rm -f "$live_a" "$live_b"
[ "$live_ok" = 0 ]

step "fuzzing: each cargo-fuzz target for ${FUZZ_SECONDS:-30} s (libFuzzer; FUZZ_SECONDS=0 skips)"
if [ "${FUZZ_SECONDS:-30}" != 0 ]; then
  mkdir -p fuzz/artifacts
  # Every target in one build, their links side by side (built one run at a time they relink in
  # turn: after a change to the core, 82 s for two targets against 90 s for all seven; from a
  # clean clone the shared dependencies dominate either way); each run then finds its binary.
  RUSTC_BOOTSTRAP=1 cargo fuzz build
  fuzz_target() {
    local target=$1 log="fuzz/artifacts/$1.log"
    mkdir -p "fuzz/corpus/$target"
    # A fixed seed, so a failure reproduces; a crashing input is kept in fuzz/artifacts/.
    # (import_group starts from the real describe outputs the unit tests read.)
    local seeds=()
    [ "$target" = import_group ] && seeds=(crates/simulator/tests/import)
    if ! RUSTC_BOOTSTRAP=1 cargo fuzz run "$target" "fuzz/corpus/$target" "${seeds[@]}" -- \
      -max_total_time="${FUZZ_SECONDS:-30}" -seed=20261201 >"$log" 2>&1; then
      # The panic's message first: the input's Debug dump that follows it can be long.
      { grep -m 1 -A 6 "panicked at" "$log" || true; tail -n 40 "$log"; echo "fuzz target $target failed (log: $log)"; } >&2
      return 1
    fi
    echo "$target: $(grep -E '^Done [0-9]+ runs' "$log" | tail -n 1)"
  }
  # Two targets at a time, a core each: eight targets in four rounds of FUZZ_SECONDS, not eight.
  targets=(requests json_requests consumer_protocol scenario consumer_group compact_assign broker_frames import_group)
  for ((i = 0; i < ${#targets[@]}; i += 2)); do
    pids=()
    for target in "${targets[@]:i:2}"; do
      fuzz_target "$target" &
      pids+=($!)
    done
    failed=0
    for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
    [ "$failed" = 0 ] || exit 1
  done
fi

step "wasm tests in Node.js"
wasm-pack test --node crates/wasm

step "wasm tests in headless Chromium"
wasm-pack test --headless --chrome crates/wasm

step "wasm build for the page -> web/pkg (when its sources are newer than it)"
bash scripts/build-wasm.sh --if-stale

step "the book (mdBook) -> web/public/book"
npm run build:book

step "TypeScript: format and lint (Biome), typecheck, unit tests (vitest, Node), vite build"
npx biome ci .
npx tsc --noEmit
npx vitest run
npx vite build

step "the books' links (linkinator), and the npm package for documentation sites -> target/npm"
bash scripts/check-links.sh
bash scripts/package.sh

step "end-to-end: the built page in Chromium (Playwright's runner, playwright.config.mjs)"
e2e_log=$(mktemp)
npx playwright test | tee "$e2e_log"
step_table
# The runners' summaries last (vitest's and cargo's scrolled past above): the browser tests'.
echo; e2e_summary "$e2e_log"
rm -f "$e2e_log"
