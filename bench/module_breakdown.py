"""Where the page's wasm module's bytes go, by kind of code: a stand-in for twiggy (0.7 panics on
this module). Reads a module that still has its `name` section (`wasm-opt -Os -g`, see
scripts/bench.sh) and sums each function body's size by what the function is: the model's own
code (coordinator, simulator, binding), generic library code instantiated for the model's types
(BTreeMap, sorting, serde, Vec), formatting, the allocator, wasm-bindgen's glue. A function
inlined into another counts where it was inlined. Prints a table and `BENCH module_kb` lines.

Usage: python3 bench/module_breakdown.py MODULE.wasm [top N functions]"""
import re
import sys
from collections import Counter


def leb(data, i):
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def read_module(path):
    """(section sizes by id, function body sizes, function names by index, imported functions)."""
    data = open(path, "rb").read()
    pos, sections, bodies, names, imported = 8, Counter(), [], {}, 0
    while pos < len(data):
        sid = data[pos]
        size, pos = leb(data, pos + 1)
        end = pos + size
        sections[sid] += size
        if sid == 2:  # imports: functions are numbered after them
            count, i = leb(data, pos)
            for _ in range(count):
                for _ in range(2):  # module and field names
                    n, i = leb(data, i)
                    i += n
                kind = data[i]
                i += 1
                if kind == 0:
                    _, i = leb(data, i)
                    imported += 1
                elif kind == 1:  # table: element type, limits
                    flags, i = leb(data, i + 1)
                    _, i = leb(data, i)
                    if flags & 1:
                        _, i = leb(data, i)
                elif kind == 2:  # memory: limits
                    flags, i = leb(data, i)
                    _, i = leb(data, i)
                    if flags & 1:
                        _, i = leb(data, i)
                elif kind == 3:  # global: type, mutability
                    i += 2
        elif sid == 10:
            count, i = leb(data, pos)
            for _ in range(count):
                n, i = leb(data, i)
                bodies.append(n)
                i += n
        elif sid == 0:
            n, i = leb(data, pos)
            if data[i:i + n] == b"name":
                i += n
                while i < end:
                    sub = data[i]
                    length, i = leb(data, i + 1)
                    if sub == 1:
                        count, j = leb(data, i)
                        for _ in range(count):
                            index, j = leb(data, j)
                            n, j = leb(data, j)
                            names[index] = data[j:j + n].decode("utf-8", "replace")
                            j += n
                    i += length
        pos = end
    return sections, bodies, names, imported


def demangle(name):
    """Rust's legacy mangling (`_ZN...E`) as a path; other names as they are."""
    if not name.startswith("_ZN"):
        return name
    i, parts = 3, []
    while i < len(name) and name[i].isdigit():
        j = i
        while name[j].isdigit():
            j += 1
        n = int(name[i:j])
        parts.append(name[j:j + n])
        i = j + n
    if parts and re.fullmatch(r"h[0-9a-f]{16}", parts[-1]):
        parts.pop()
    path = "::".join(parts)
    for code, text in [("$LT$", "<"), ("$GT$", ">"), ("$u20$", " "), ("$RF$", "&"), ("$C$", ","),
                       ("..", "::"), ("$u7b$", "{"), ("$u7d$", "}"), ("$BP$", "*"), ("$LP$", "("),
                       ("$RP$", ")"), ("$u27$", "'")]:
        path = path.replace(code, text)
    return path


KINDS = [
    ("btree", "BTreeMap / BTreeSet (per key and value type)", lambda n: "collections::btree" in n),
    ("sort", "sorting (per element type)", lambda n: "slice::sort" in n or "::sort_by" in n),
    ("serde_read", "serde: reading JSON", lambda n: "serde" in n and ("Deserializ" in n or "::de::" in n or "Visitor" in n)),
    ("serde_write", "serde: writing JSON", lambda n: "serde" in n),
    ("fmt", "formatting (core::fmt, numbers)", lambda n: "core::fmt" in n or "flt2dec" in n or "fmt::" in n),
    ("alloc", "allocator (dlmalloc)", lambda n: "dlmalloc" in n or "__rdl_" in n or "__rust_alloc" in n),
    ("glue", "wasm-bindgen glue and export shims", lambda n: "shim" in n or "wasm_bindgen" in n or "js_sys" in n or n.startswith("__wbg")),
    ("coordinator", "the model: coordinator and assignors", lambda n: "group_coordinator::" in n and "group_coordinator_wasm" not in n),
    ("simulator", "the model: simulator", lambda n: "group_simulator::" in n),
    ("binding", "the binding (group-coordinator-wasm)", lambda n: "group_coordinator_wasm" in n),
    ("other", "Vec, String and other library code", lambda n: True),
]


def main():
    path = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    sections, bodies, names, imported = read_module(path)
    rows = [(size, demangle(names.get(imported + k, "?"))) for k, size in enumerate(bodies)]
    code = sum(bodies)
    by_kind, count = Counter(), Counter()
    for size, name in rows:
        kind = next(label for _, label, match in KINDS if match(name))
        by_kind[kind] += size
        count[kind] += 1
    kb = lambda n: f"{n / 1024:8.1f} KB"
    print(f"{'code, by kind (function bodies after wasm-opt -Os)':<52} {'size':>11} {'share':>6} {'functions':>9}")
    for _, label, _ in KINDS:
        print(f"{label:<52} {kb(by_kind[label])} {100 * by_kind[label] / code:5.1f}% {count[label]:>9}")
    print(f"{'all code':<52} {kb(code)}        {len(bodies):>9}")
    print(f"{'data (narration in two languages, messages, names)':<52} {kb(sections[11])}")
    for slug, label, _ in KINDS:
        print(f"BENCH module_kb {slug} {by_kind[label] / 1024:.1f}")
    print(f"BENCH module_kb data {sections[11] / 1024:.1f}")
    if top:
        print()
        for size, name in sorted(rows, reverse=True)[:top]:
            print(f"{size:>8}  {name[:150]}")


if __name__ == "__main__":
    main()
