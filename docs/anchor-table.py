#!/usr/bin/env python3
"""The anchor table from one `modred bench --anchors --format json` run.

    modred bench --anchors --algo montgomery,montgomery-interleaved,auto,nist \
        --bits 256,1024,2048,4096 --op mulmod,powm --format json > anchors.json
    python3 docs/anchor-table.py anchors.json

Every ratio is `ratio_to` from the JSON: the median of the per-round ratios of the two
candidates over the quiet rounds of that one interleaved run (ours ÷ the anchor; below 1
means we are faster). Python 3 standard library only.
"""
import json
import sys

OURS = "montgomery"
MULMOD = [("gmp-mul", "GMP `mpn_mul_n`"), ("gmp-mulmod", "GMP `mpz_mul`+`mpz_tdiv_r`"),
          ("openssl-mont-mul", "OpenSSL `BN_mod_mul_montgomery`")]
POWM = [("gmp-powm", "GMP `mpz_powm`"), ("openssl-powm-ct", "OpenSSL `BN_mod_exp_mont_consttime`")]


def human(ns):
    if ns < 1e3:
        return f"{ns:.1f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.2f} µs"
    return f"{ns / 1e6:.2f} ms"


def main(path):
    rows = json.load(open(path))["results"]

    def get(op, bits, name):
        for r in rows:
            if (r["op"], r["bits"], r["algorithm"]) == (op, bits, name) and r.get("ns") is not None:
                return r
        return None

    head = ["bits", "ours: `montgomery` mulmod"] + [f"{l} (ours ÷ it)" for _, l in MULMOD]
    head += ["ours: `montgomery` powm"] + [f"{l} (ours ÷ it)" for _, l in POWM]
    print("| " + " | ".join(head) + " |")
    print("|" + "---:|" * len(head))
    for bits in sorted({r["bits"] for r in rows}):
        cells = [str(bits)]
        for op, anchors in (("mulmod", MULMOD), ("powm", POWM)):
            ours = get(op, bits, OURS)
            cells.append(human(ours["ns"]) if ours else "—")
            for name, _ in anchors:
                a = get(op, bits, name)
                ok = ours and a and name in ours["ratio_to"]
                cells.append(f"{human(a['ns'])} ({ours['ratio_to'][name]:.2f})" if ok else "—")
        print("| " + " | ".join(cells) + " |")
    nist, ossl = get("mulmod", 256, "nist"), get("mulmod", 256, "openssl-nist256")
    if nist and ossl:
        print(f"\nP-256 field multiplication: `nist` {human(nist['ns'])}, OpenSSL `BN_mul`+"
              f"`BN_nist_mod_256` {human(ossl['ns'])}: ours ÷ OpenSSL = "
              f"{nist['ratio_to']['openssl-nist256']:.2f}")
    goals = [("mulmod", [256], "gmp-mul", 1.5, "Montgomery mulmod ÷ GMP `mpn_mul_n`"),
             ("mulmod", [256], "openssl-mont-mul", 0.5, "Montgomery mulmod ÷ OpenSSL `BN_mod_mul_montgomery`"),
             ("mulmod", [1024, 2048, 4096], "openssl-mont-mul", 0.8, "Montgomery mulmod ÷ OpenSSL `BN_mod_mul_montgomery`"),
             ("powm", [1024, 2048, 4096], "gmp-powm", 0.9, "powm ÷ GMP `mpz_powm`"),
             ("powm", [1024, 2048, 4096], "openssl-powm-ct", 1.0, "powm ÷ OpenSSL `BN_mod_exp_mont_consttime`")]
    print("\nThe goals against this run:\n")
    print("| goal | bits | at most | measured | met |\n|---|---|---:|---|---|")
    for op, sizes, anchor, limit, what in goals:
        got = []
        for bits in sizes:
            ours = get(op, bits, OURS)
            if ours and anchor in ours["ratio_to"]:
                got.append(ours["ratio_to"][anchor])
        if got:
            met = "yes" if all(g <= limit for g in got) else "no"
            shown = ", ".join(f"{g:.2f}" for g in got)
            print(f"| {what} | {', '.join(map(str, sizes))} | {limit} | {shown} | {met} |")
    if nist and ossl:
        g = nist["ratio_to"]["openssl-nist256"]
        print(f"| P-256 `nist` ÷ OpenSSL `BN_mul`+`BN_nist_mod_256` | 256 | 0.3 | {g:.2f} | {'yes' if g <= 0.3 else 'no'} |")
    others = [r for r in rows if r["algorithm"] in ("montgomery-interleaved", "auto") and r.get("ns")]
    if others:
        print("\nThe other Montgomery form and `auto` in the same run (`auto` is `montgomery` itself\n"
              "here, so its ratio shows the run's noise):\n")
        print("| op | bits | candidate | time | ÷ `montgomery` |\n|---|---:|---|---:|---:|")
        for r in others:
            print(f"| {r['op']} | {r['bits']} | {r['label']} | {human(r['ns'])} | "
                  f"{r['ratio_to'][OURS]:.2f} |")


if __name__ == "__main__":
    main(sys.argv[1])
