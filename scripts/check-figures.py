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
  - every tick has a label (no empty text element);
  - the legend (`<g class="legend" data-x=… data-y=… data-width=… data-height=…>`) covers
    nothing drawn: no segment of a polyline or line and no dot drawn in a series' colour
    or the reference lines' grey (#5A5A5A), read from the SVG outside the legend, meets
    its rectangle (segments are clipped against it, not just their end points tested).
Exits 1 and names every problem.
"""
import glob
import html
import os
import re
import sys

REFERENCE_GREY = "#5A5A5A"


def attrs(tag):
    return dict(re.findall(r'([\w-]+)="([^"]*)"', tag))


def segment_meets(a, b, rect):
    """Whether the segment a-b meets the closed rectangle (x0, y0, x1, y1) (Liang-Barsky)."""
    (ax, ay), (bx, by) = a, b
    x0, y0, x1, y1 = rect
    dx, dy = bx - ax, by - ay
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)):
        if p == 0:
            if q < 0:
                return False
        else:
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 > t1:
                return False
    return True


def legend_overlaps(svg, colours):
    """The drawn marks (outside the legend) that its rectangle meets, described; None when
    the figure has no legend group."""
    m = re.search(r'<g class="legend"([^>]*)>(.*?)</g>', svg, re.S)
    if not m:
        return None
    a = attrs(m.group(1))
    x, y = float(a["data-x"]), float(a["data-y"])
    rect = (x, y, x + float(a["data-width"]), y + float(a["data-height"]))
    body = svg[: m.start()] + svg[m.end():]
    inked = {c.upper() for c in colours} | {REFERENCE_GREY}
    hits = []
    for tag, rest in re.findall(r"<(polyline|line|circle)\b([^>]*)>", body):
        at = attrs(rest)
        if at.get("stroke", "").upper() not in inked and at.get("fill", "").upper() not in inked:
            continue
        half = float(at.get("stroke-width", "1")) / 2
        if tag == "polyline":
            pts = [tuple(map(float, p.split(","))) for p in at.get("points", "").split()]
            segs = list(zip(pts, pts[1:])) or [(p, p) for p in pts]
        elif tag == "line":
            segs = [((float(at["x1"]), float(at["y1"])), (float(at["x2"]), float(at["y2"])))]
        else:
            c = (float(at["cx"]), float(at["cy"]))
            segs, half = [(c, c)], float(at["r"])
        grown = (rect[0] - half, rect[1] - half, rect[2] + half, rect[3] + half)
        for s0, s1 in segs:
            if segment_meets(s0, s1, grown):
                hits.append(f"{tag} {s0}-{s1}")
    return rect, hits


def main():
    out = sys.argv[1]
    problems = []
    colour_of = {}
    figures = 0
    legends_checked = 0
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
        overlap = legend_overlaps(svg, [c for _, _, c, _ in series])
        if overlap is None:
            problems.append(f"{name}: no legend group")
        else:
            rect, hits = overlap
            legends_checked += 1
            if hits:
                problems.append(f"{name}: the legend {rect} covers {len(hits)} mark(s), e.g. {hits[0]}")
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
          f"one colour each, every series in its legend, {legends_checked} legends covering no mark")


if __name__ == "__main__":
    main()
