#!/usr/bin/env python3
"""The crate documentation's tables of `auto` against the fastest, from one run of

    MODRED_PROFILE= modred tune --check > check.txt

Usage: python3 docs/tune-table.py check.txt [crates/modred/src/lib.rs]

Prints the Markdown tables (generic moduli: reduce, mulmod, powm by size for odd and even
moduli; special forms: one row per modulus). Given the crate's lib.rs as well, replaces the
lines between its `<!-- tune-table -->` and `<!-- /tune-table -->` markers with them.
"""

import re
import sys


def rows(text):
    """The table lines of a `tune --check` output as dicts."""
    out = []
    for line in text.splitlines():
        cells = re.split(r"\s{2,}", line.strip())
        if len(cells) < 8 or cells[0] not in ("reduce", "mulmod", "powm"):
            continue
        op, form, label, bits, fastest, time, auto, ratio = cells[:8]
        out.append(
            {
                "op": op,
                "form": form,
                "label": label,
                "bits": int(bits),
                "fastest": fastest,
                "time": time,
                "auto": auto,
                "ratio": float(ratio.rstrip(" !")),
            }
        )
    return out


def cell(r):
    """`auto` ratio, and the fastest where that is another algorithm."""
    s = f"`{r['auto']}` {r['ratio']:.2f}"
    if r["fastest"] != r["auto"]:
        s += f" (`{r['fastest']}`)"
    return s


def tables(text):
    rs = rows(text)
    by = {(r["op"], r["form"], r["label"]): r for r in rs}
    lines = [
        "| op | bits | odd modulus: auto, auto/fastest (fastest) | time | even modulus | time |",
        "|---|---:|---|---:|---|---:|",
    ]
    for op in ("reduce", "mulmod", "powm"):
        labels = sorted(
            {r["label"] for r in rs if r["op"] == op and r["form"] in ("odd", "even")}, key=int
        )
        for label in labels:
            odd, even = by.get((op, "odd", label)), by.get((op, "even", label))
            c = lambda r: (cell(r), r["time"]) if r else ("—", "—")
            (oc, ot), (ec, et) = c(odd), c(even)
            lines.append(f"| {op} | {label} | {oc} | {ot} | {ec} | {et} |")
    lines += [
        "",
        "Special forms (same run; `solinas` is the generalized Mersenne form that is neither a",
        "NIST prime nor one-digit pseudo-Mersenne, for which the generic rule decides):",
        "",
        "| modulus | form | reduce | mulmod | powm |",
        "|---|---|---|---|---|",
    ]
    seen = []
    for r in rs:
        key = (r["form"], r["label"])
        if r["form"] in ("pseudo-mersenne", "nist", "solinas") and key not in seen:
            seen.append(key)
    for form, label in seen:
        cs = [by.get((op, form, label)) for op in ("reduce", "mulmod", "powm")]
        cs = [cell(c) if c else "—" for c in cs]
        lines.append(f"| {label} | {form} | {' | '.join(cs)} |")
    return lines


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    lines = tables(open(sys.argv[1], encoding="utf-8").read())
    if len(sys.argv) == 2:
        print("\n".join(lines))
        return
    path = sys.argv[2]
    src = open(path, encoding="utf-8").read()
    begin, end = "//! <!-- tune-table -->\n", "//! <!-- /tune-table -->\n"
    if begin not in src or end not in src:
        sys.exit(f"{path}: no {begin.strip()} … {end.strip()} markers")
    head, rest = src.split(begin, 1)
    _, tail = rest.split(end, 1)
    body = "".join(("//! " + l).rstrip() + "\n" for l in lines)
    open(path, "w", encoding="utf-8").write(head + begin + body + end + tail)


if __name__ == "__main__":
    main()
