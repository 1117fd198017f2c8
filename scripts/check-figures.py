#!/usr/bin/env python3
"""Checks the report's line figures (the SVG files a run writes beside its pages).

Usage: scripts/check-figures.py OUT_DIR

Each line figure names its series in `<g class="series" data-name=… data-key=…
data-colour=… data-dashed=…/>` elements (written by the report's plot module). Checked:
  - every series has a legend entry (an SVG text equal to its name) and its colour is
    drawn in the figure;
  - no series key (an algorithm; a published series shares its measured one's key) has
    two colours across the figures: one colour per algorithm everywhere;
  - within a figure, two different keys never share a colour;
  - every tick has a label (no empty text element).
Exits 1 and names every problem.
"""
import glob
import html
import os
import re
import sys


def main():
    out = sys.argv[1]
    problems = []
    colour_of = {}
    figures = 0
    for path in sorted(glob.glob(os.path.join(out, "*.svg"))):
        svg = open(path, encoding="utf-8").read()
        series = re.findall(
            r'<g class="series" data-name="([^"]*)" data-key="([^"]*)" '
            r'data-colour="(#[0-9A-Fa-f]{6})" data-dashed="(true|false)"/>',
            svg,
        )
        if not series:
            continue  # a map, not a line figure
        figures += 1
        name = os.path.basename(path)
        all_texts = [html.unescape(t.strip()) for t in re.findall(r"<text\b[^>]*>(.*?)</text>", svg, re.S)]
        texts = set(all_texts)
        if "" in texts:
            problems.append(f"{name}: {all_texts.count('')} tick(s) without a label")
        keys_by_colour = {}
        for sname, key, colour, _dashed in series:
            sname, key, colour = html.unescape(sname), html.unescape(key), colour.upper()
            if sname not in texts:
                problems.append(f"{name}: no legend entry for series '{sname}'")
            if f'stroke="{colour}"' not in svg and f'fill="{colour}"' not in svg:
                problems.append(f"{name}: series '{sname}' colour {colour} is not drawn")
            colour_of.setdefault(key, {}).setdefault(colour, []).append(name)
            keys_by_colour.setdefault(colour, set()).add(key)
        for colour, keys in keys_by_colour.items():
            if len(keys) > 1:
                problems.append(f"{name}: {sorted(keys)} share the colour {colour}")
    for key, colours in sorted(colour_of.items()):
        if len(colours) > 1:
            where = "; ".join(f"{c} in {', '.join(sorted(set(f)))}" for c, f in colours.items())
            problems.append(f"series '{key}' changes colour between figures: {where}")
    if figures == 0:
        problems.append(f"no line figure with series metadata in {out}")
    if problems:
        print("check-figures: FAILED:\n  " + "\n  ".join(problems), file=sys.stderr)
        sys.exit(1)
    print(f"check-figures: {figures} line figures, {len(colour_of)} series keys, "
          "one colour each, every series in its legend")


if __name__ == "__main__":
    main()
