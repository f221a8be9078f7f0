"""The server assignors side by side: native, wasm under Node, and Kafka's Java classes as
measured on the real Kafka classes (`docs/src/reference/assignors.md#java-figures`; same grid, one core), with ratios. Usage:
python bench/report_server.py NATIVE WASM"""
import sys

from report import load


def main():
    native = load(sys.argv[1], "BENCH ")
    java = load(sys.argv[1], "JAVA ")
    wasm = load(sys.argv[2], "BENCH ")
    native_compact = load(sys.argv[1], "COMPACT ")
    wasm_compact = load(sys.argv[2], "COMPACT ")
    # native/wasm: the assignor alone natively, `serverAssign` (JSON) in wasm. The compact
    # columns: the whole compact call, natively and in wasm, on the same input.
    print(f"{'assignor':<15} {'members':>7} {'topics':>6} {'subscriptions':>13} {'mode':>11} "
          f"{'native ms':>10} {'wasm ms':>9} {'wasm/nat':>8} {'Java ms':>8} {'Java/nat':>8} "
          f"{'compact nat':>11} {'compact wasm':>12} {'wasm/nat':>8}")
    for key, n in native.items():
        assignor, members, topics, subs, mode = key.split(",")
        w, j = wasm.get(key, ""), java.get(key, "")
        cn, cw = native_compact.get(key, ""), wasm_compact.get(key, "")
        ratio = lambda other, base=n: f"{float(other) / float(base):.1f}x" if other and base and float(base) > 0 else ""
        fmt = lambda v, width: f"{(f'{float(v):.3f}' if v else '-'):>{width}}"
        print(f"{assignor:<15} {members:>7} {topics:>6} {subs:>13} {mode:>11} {float(n):>10.3f} "
              f"{fmt(w, 9)} {ratio(w):>8} {(j or '-'):>8} {ratio(j):>8} "
              f"{fmt(cn, 11)} {fmt(cw, 12)} {ratio(cw, cn):>8}")


if __name__ == "__main__":
    main()
