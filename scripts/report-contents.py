#!/usr/bin/env python3
"""Checks that report HTML pages show the pages and headings the code's list names.

Usage: scripts/report-contents.py CONTENTS_FILE HTML_FILE...

CONTENTS_FILE is the output of `modred report --contents` (a line `page ID` per page,
then a line per heading of its tables and figures); each HTML_FILE is a report's
index.html (a fresh one, or the committed sample docs/report-sample/index.html). Exits 1
and names the differences when a page's sections or headings differ.
"""
import html
import re
import sys


def expected(path):
    pages = []
    for line in open(path, encoding="utf-8").read().splitlines():
        if line.startswith("page "):
            pages.append((line[5:], []))
        elif line and pages:
            pages[-1][1].append(line)
    return pages


def found(path):
    text = open(path, encoding="utf-8").read()
    pages = []
    for m in re.finditer(r'<section\b[^>]*\bid="([^"]*)"|<h3\b[^>]*>(.*?)</h3>', text, re.S):
        if m.group(1) is not None:
            pages.append((m.group(1), []))
        elif pages:
            pages[-1][1].append(html.unescape(re.sub(r"<[^>]*>", "", m.group(2))))
    return [p for p in pages if p[0] != "index"]


def main():
    want = expected(sys.argv[1])
    bad = False
    for path in sys.argv[2:]:
        got = found(path)
        if got == want:
            print(f"report-contents: {path}: {len(got)} pages, "
                  f"{sum(len(h) for _, h in got)} headings as listed in code")
            continue
        bad = True
        print(f"report-contents: {path} differs from `modred report --contents`:", file=sys.stderr)
        gd, wd = dict(got), dict(want)
        if [p for p, _ in got] != [p for p, _ in want]:
            print(f"  pages: {[p for p, _ in got]} instead of {[p for p, _ in want]}", file=sys.stderr)
        for page, hs in want:
            if page in gd and gd[page] != hs:
                print(f"  {page}: {gd[page]} instead of {hs}", file=sys.stderr)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
