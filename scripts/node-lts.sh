#!/usr/bin/env bash
# Prints the path of a Node.js of the current long-term-support line (24), for the benchmarks:
# the machine's Node may be older (Debian's is 20, past its end of life in April 2026), and an
# engine's age shows in wasm timings (V8 11.3 against Node 24's 13.6: JSON.stringify and wasm
# code both got faster). Node's own builds are on the npm registry as node-linux-<arch>; fetched
# once into target/node-lts/. Falls back to the machine's `node` (saying so on stderr) where
# that package is not to be had.
set -euo pipefail
cd "$(dirname "$0")/.."
version=24.22.3
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) arch=x64 ;;
  Linux-aarch64) arch=arm64 ;;
  *) arch= ;;
esac
dir=target/node-lts
if [ -n "$arch" ] && [ ! -x "$dir/$version/bin/node" ]; then
  mkdir -p "$dir"
  if (cd "$dir" && npm pack --silent "node-linux-$arch@$version" >/dev/null 2>&1); then
    rm -rf "$dir/$version" "$dir/package"
    tar xzf "$dir/node-linux-$arch-$version.tgz" -C "$dir"
    mv "$dir/package" "$dir/$version"
    rm -f "$dir/node-linux-$arch-$version.tgz"
  fi
fi
if [ -x "$dir/$version/bin/node" ]; then
  echo "$PWD/$dir/$version/bin/node"
else
  echo "node-lts: no Node $version for $(uname -s)-$(uname -m); using the machine's $(node --version)" >&2
  command -v node
fi
