"""Merges `BENCH key,ms` lines of the native, wasm and kafka-python assignor runs (and the
native run's `INTERNED key,ms` lines: the assignor alone on an interned input; the wasm run's
`COMPACT key,ms` lines: `assignCompact`, the compact form) into one table with ratios.
Usage: python bench/report.py NATIVE WASM PEER"""
import sys


def load(path, tag="BENCH "):
    rows = {}
    for line in open(path, encoding="utf-8"):
        if line.startswith(tag):
            key, _, value = line[len(tag):].strip().rpartition(",")
            rows[key] = value
    return rows


def main():
    native, wasm, peer = (load(p) for p in sys.argv[1:4])
    interned = load(sys.argv[1], "INTERNED ")
    compact = load(sys.argv[2], "COMPACT ")
    print(f"{'assignor':<19} {'members':>7} {'topics':>6} {'subscriptions':>13} {'mode':>5} "
          f"{'interned ms':>11} {'native ms':>10} {'wasm ms':>9} {'wasm/nat':>8} {'compact ms':>10} {'cmp/nat':>8} "
          f"{'kafka-python ms':>16} {'peer/nat':>9}")
    for key, n in native.items():
        strategy, members, topics, subs, mode = key.split(",")
        w = wasm.get(key, "")
        p = peer.get(key, "")
        ratio = lambda other: f"{float(other) / float(n):.1f}x" if other and not other.startswith("timeout") and float(n) > 0 else ""
        i = interned.get(key, "")
        c = compact.get(key, "")
        print(f"{strategy:<19} {members:>7} {topics:>6} {subs:>13} {mode:>5} "
              f"{(f'{float(i):.3f}' if i else '-'):>11} {float(n):>10.3f} "
              f"{(f'{float(w):.3f}' if w else '-'):>9} {ratio(w):>8} "
              f"{(f'{float(c):.3f}' if c else '-'):>10} {ratio(c):>8} {(p or '-'):>16} {ratio(p):>9}")


if __name__ == "__main__":
    main()
