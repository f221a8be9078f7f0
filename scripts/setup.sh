#!/usr/bin/env bash
# Installs what building and testing need, if missing (idempotent; Debian 12, as root or with sudo):
#   --serve     only what serving the page needs (start.sh): the wasm32 target, wasm-bindgen-cli
#               and the npm packages (wasm-opt among them); no wasm-pack (only the wasm tests use
#               it), no cargo-fuzz, no mdbook, no browser
#   --book      only mdbook (start.sh builds the book after the page is up)
#   --browser   also what the full test run needs from Debian: Chromium + ChromeDriver (browser
#               tests), and a JDK with RE2/J 1.7 (the topic regexes checked against Kafka's engine)
# Versions: the wasm-bindgen CLI must equal the wasm-bindgen
# crate in Cargo.lock; wasm-pack and wasm-opt come from registries (crates.io, npm), never from
# GitHub downloads or Debian's binaryen.
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_PACK_VERSION=0.15.1
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"

SERVE_ONLY=""; [ "${1:-}" = "--serve" ] && SERVE_ONLY=1
BOOK_ONLY=""; [ "${1:-}" = "--book" ] && BOOK_ONLY=1

if [ "${1:-}" = "--browser" ]; then
  # A CJK font, so the Chinese interface renders in the browser tests' screenshots.
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null \
    || ! dpkg -s fonts-wqy-zenhei >/dev/null 2>&1; then
    echo "setup: installing chromium + chromium-driver + fonts-wqy-zenhei (apt)"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver fonts-wqy-zenhei >/dev/null
  fi
  if ! command -v javac >/dev/null || [ ! -f /usr/share/java/re2j.jar ]; then
    echo "setup: installing a JDK + libre2j-java (apt)"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq default-jdk-headless libre2j-java >/dev/null
  fi
fi

# mdBook builds the documentation (docs/) into the page's public files (web/public/book).
MDBOOK_VERSION=0.5.4
install_mdbook() {
  if [ "$(mdbook --version 2>/dev/null | cut -d' ' -f2)" != "v$MDBOOK_VERSION" ]; then
    echo "setup: installing mdbook $MDBOOK_VERSION (a few minutes, once)"
    cargo install --force --locked mdbook --version "$MDBOOK_VERSION" --no-default-features --features search
  fi
}
if [ -n "$BOOK_ONLY" ]; then
  install_mdbook
  exit 0
fi

TARGETS="wasm32-unknown-unknown"; [ -z "$SERVE_ONLY" ] && TARGETS="$TARGETS thumbv7em-none-eabihf"
# shellcheck disable=SC2086
rustup target add $TARGETS >/dev/null 2>&1 || rustup target add $TARGETS

WBG_VERSION=$(sed -n '/^name = "wasm-bindgen"$/{n;s/^version = "\(.*\)"$/\1/p;q}' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" != "$WBG_VERSION" ]; then
  echo "setup: installing wasm-bindgen-cli $WBG_VERSION (a few minutes, once)"
  # no --locked: the CLI's own lockfile pins a crate version the registry here does not have
  cargo install --force wasm-bindgen-cli --version "$WBG_VERSION"
fi
install_npm() {
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund
  fi
}
if [ -n "$SERVE_ONLY" ]; then
  install_npm
  exit 0
fi

# wasm-pack runs the wasm tests (`wasm-pack test`); the page is built without it.
if [ "$(wasm-pack --version 2>/dev/null | cut -d' ' -f2)" != "$WASM_PACK_VERSION" ]; then
  echo "setup: installing wasm-pack $WASM_PACK_VERSION (a few minutes, once)"
  cargo install --force --locked wasm-pack --version "$WASM_PACK_VERSION"
fi

install_mdbook

CARGO_FUZZ_VERSION=0.13.1
if [ "$(cargo fuzz --version 2>/dev/null | cut -d' ' -f2)" != "$CARGO_FUZZ_VERSION" ]; then
  echo "setup: installing cargo-fuzz $CARGO_FUZZ_VERSION (a minute, once)"
  cargo install --force cargo-fuzz --version "$CARGO_FUZZ_VERSION"
fi

install_npm
