"""Merges `BENCH key,ms` lines of the native, wasm and kafka-python assignor runs (and the
native run's `INTERNED key,ms` lines: the assignor alone on an interned input; the wasm run's
`COMPACT key,ms` lines: `assignCompact`, the compact form; and the Chromium run's `CHROMIUM
key,ms` lines, `assignCompact` in the browser; and a second Node run's `COMPACT key,ms` lines,
under Node's current LTS line, scripts/node-lts.sh) into one table with ratios.
Usage: python bench/report.py NATIVE WASM PEER [CHROMIUM [NODE-LTS]]"""
import sys


def load(path, tag="BENCH "):
    rows = {}
    for line in open(path, encoding="utf-8"):
        if line.startswith(tag):
            key, _, value = line[len(tag):].strip().rpartition(",")
            rows[key] = value
    return rows


# Kafka's Java figures (docs/src/reference/assignors.md#java-figures: the 4.0 classes, JIT
# warmed, median, this kind of machine), in ms, by (strategy, subscriptions, mode, members,
# topics); the grid's other cells have none.
JAVA = {}
for strategy, subs, cells in [
    ("range", "homogeneous", [(0.20, 0.20), (11, 11), (267, 105), (225, 219)]),
    ("range", "heterogeneous", [(0.08, 0.17), (2.7, 2.9), (16, 16), (88, 299)]),
    ("cooperative-sticky", "homogeneous", [(0.06, 0.18), (1.3, 3.7), (13, 18), (18, 95)]),
    ("cooperative-sticky", "heterogeneous", [(0.53, 11), (224, 5100), (1600, 3800), (27500, None)]),
]:
    for (members, topics), (fresh, join) in zip([(100, 10), (1000, 100), (1000, 1000), (10000, 100)], cells):
        JAVA[(strategy, subs, "fresh", str(members), str(topics))] = fresh
        if join is not None:
            JAVA[(strategy, subs, "join", str(members), str(topics))] = join


def main():
    native, wasm, peer = (load(p) for p in sys.argv[1:4])
    interned = load(sys.argv[1], "INTERNED ")
    prepare = load(sys.argv[1], "PREPARE ")
    native_compact = load(sys.argv[1], "COMPACT ")
    compact = load(sys.argv[2], "COMPACT ")
    browser = load(sys.argv[4], "CHROMIUM ") if len(sys.argv) > 4 else {}
    lts = load(sys.argv[5], "COMPACT ") if len(sys.argv) > 5 else {}
    # Which Node each wasm run had (their first line: "wasm (Node v20.20.2, V8 11.3...)").
    node = engine(sys.argv[2])
    lts_node = engine(sys.argv[5]) if len(sys.argv) > 5 else ""
    if node:
        print(f"wasm: {node}" + (f"; lts: {lts_node}" if lts_node else ""))
    print(f"{'assignor':<19} {'members':>7} {'topics':>6} {'subscriptions':>13} {'mode':>5} "
          f"{'interned ms':>11} {'native ms':>10} {'wasm ms':>9} {'wasm/nat':>8} {'compact ms':>10} {'cmp/nat':>8} {'cmp/ncmp':>8} "
          f"{'chromium ms':>11} {'chr/nat':>8} {'lts ms':>8} {'lts/nat':>8} "
          f"{'kafka-python ms':>16} {'peer/nat':>9} {'Java ms':>8} {'nat/Java':>8} {'cmp/Java':>8}")
    for key, n in native.items():
        strategy, members, topics, subs, mode = key.split(",")
        w = wasm.get(key, "")
        p = peer.get(key, "")
        over = lambda other, base: (f"{float(other) / float(base):.1f}x"
                                    if other and base and not other.startswith("timeout") and float(base) > 0 else "")
        ratio = lambda other: over(other, n)
        i = interned.get(key, "")
        c = compact.get(key, "")
        b = browser.get(key, "")
        lt = lts.get(key, "")
        print(f"{strategy:<19} {members:>7} {topics:>6} {subs:>13} {mode:>5} "
              f"{(f'{float(i):.3f}' if i else '-'):>11} {float(n):>10.3f} "
              f"{(f'{float(w):.3f}' if w else '-'):>9} {ratio(w):>8} "
              f"{(f'{float(c):.3f}' if c else '-'):>10} {ratio(c):>8} {over(c, native_compact.get(key)):>8} "
              f"{(f'{float(b):.3f}' if b else '-'):>11} {ratio(b):>8} "
              f"{(f'{float(lt):.3f}' if lt else '-'):>8} {ratio(lt):>8} {(p or '-'):>16} {ratio(p):>9} "
              f"{java_columns(key, n, c)}")
    summary(native, native_compact, compact, browser, lts, node, lts_node)
    # Where each form's time goes: natively, interning (prepare), assigning, naming the output;
    # in wasm, what running there adds to the native call (crossing the boundary, and the
    # module's own slower code).
    print()
    print("per phase (ms): native prepare + assign + output = native; the compact form natively; "
          "added in wasm = wasm - native, for the JSON form and for the compact form")
    print(f"{'assignor':<19} {'members':>7} {'topics':>6} {'subscriptions':>13} {'mode':>5} "
          f"{'prepare':>8} {'assign':>8} {'output':>8} {'compact':>8} {'+wasm json':>10} {'+wasm cmp':>9}")
    for key, n in native.items():
        strategy, members, topics, subs, mode = key.split(",")
        f = lambda d, k=key: float(d[k]) if d.get(k) else None
        pre, asg, nat, ncmp, w, wcmp = f(prepare), f(interned), float(n), f(native_compact), f(wasm), f(compact)
        cell = lambda v: f"{v:.3f}" if v is not None else "-"
        out = nat - pre - asg if pre is not None and asg is not None else None
        print(f"{strategy:<19} {members:>7} {topics:>6} {subs:>13} {mode:>5} "
              f"{cell(pre):>8} {cell(asg):>8} {cell(out):>8} {cell(ncmp):>8} "
              f"{cell(w - nat if w is not None else None):>10} "
              f"{cell(wcmp - ncmp if wcmp is not None and ncmp is not None else None):>9}")


def engine(path):
    """The Node a wasm run had, from its first line, or ""."""
    for line in open(path, encoding="utf-8"):
        if line.startswith("wasm ("):
            return line.strip()[len("wasm ("):-1]
    return ""


def summary(native, native_compact, compact, browser, lts, node, lts_node):
    """How many cells meet the targets of `docs/src/reference/assignors.md#targets`: the
    model at or ahead of Kafka's Java figure natively, and wasm within 1.5x of native. Native is
    read two ways: the `assign` call (names in, names out, as Kafka's Java takes and gives
    them) and the same compact call natively (like for like: the same input, the same code)."""
    def count(label, pairs):
        pairs = [(k, float(a) / float(b)) for k, a, b in pairs if a and b and float(b) > 0]
        if not pairs:
            return
        over = [(r, k) for k, r in pairs if r > 1.5]
        worst = max(pairs, key=lambda p: p[1])
        print(f"  {label}: {len(pairs) - len(over)} of {len(pairs)} cells within 1.5x "
              f"(worst {worst[1]:.2f}x, {worst[0]})")
    print()
    print("targets")
    java = [(k, float(n), java_of(k)) for k, n in native.items() if java_of(k) is not None]
    behind = ", ".join(f"{k} {n / j:.2f}x" for k, n, j in java if n > j)
    print(f"  native assign at or ahead of Kafka's Java: {sum(n <= j for _, n, j in java)} of {len(java)} cells"
          + (f" (behind: {behind})" if behind else ""))
    under = lambda n: f" ({n.split(',')[0]})" if n else ""
    for label, rows in [("native compact", native_compact), (f"wasm compact{under(node)}", compact),
                        (f"wasm compact{under(lts_node)}", lts), ("Chromium compact", browser)]:
        cells = [(k, float(rows[k]), j) for k, _, j in java if rows.get(k)]
        if cells:
            late = ", ".join(f"{k} {t / j:.2f}x" for k, t, j in cells if t > j)
            print(f"  {label} at or ahead of Kafka's Java: {sum(t <= j for _, t, j in cells)} of {len(cells)} cells"
                  + (f" (behind: {late})" if late else ""))
    count(f"wasm compact{under(node)} over native assign", [(k, compact.get(k), native[k]) for k in native])
    count(f"wasm compact{under(node)} over native compact", [(k, compact.get(k), native_compact.get(k)) for k in native])
    count(f"wasm compact{under(lts_node)} over native assign", [(k, lts.get(k), native[k]) for k in native])
    count(f"wasm compact{under(lts_node)} over native compact", [(k, lts.get(k), native_compact.get(k)) for k in native])
    count("Chromium compact over native assign", [(k, browser.get(k), native[k]) for k in native])
    count("Chromium compact over native compact", [(k, browser.get(k), native_compact.get(k)) for k in native])


def java_of(key):
    """Kafka's Java figure for the cell `strategy,members,topics,subscriptions,mode`, if any."""
    strategy, members, topics, subs, mode = key.split(",")
    return JAVA.get((strategy, subs, mode, members, topics))


def java_columns(key, native, compact):
    """Kafka's Java figure for the cell, and ours over it (below 1: ahead of Java)."""
    java = java_of(key)
    if java is None:
        return f"{'-':>8} {'':>8} {'':>8}"
    over = lambda ours: f"{float(ours) / java:.2f}" if ours else ""
    return f"{java:>8} {over(native):>8} {over(compact):>8}"


if __name__ == "__main__":
    main()
