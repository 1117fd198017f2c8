#!/usr/bin/env bash
# Checks the committed sample docs/report-sample against the report's contents list
# (kept in code, `modred report --contents`: pages and the headings of their tables and
# figures), then writes the quick report, checks it against the same list, opens its
# HTML page in headless Chromium and checks that the page and its plots render:
#   - the DOM Chromium builds (after parsing, --dump-dom) has the sections and at least
#     one <svg> per figure file written beside the page, each with drawn paths/lines;
#   - a screenshot of the page is not blank (many distinct colours, not one background);
#   - every line figure has a legend entry per series and no series (algorithm) changes
#     colour between figures, and no legend covers a drawn line, point or bar
#     (scripts/check-figures.py, from the SVG files).
#
# Usage: scripts/check-report-page.sh [OUT_DIR]   (default: target/report-page-check)
# Env:   SCREENSHOT=FILE   also copy the screenshot there
#        REPORT_ARGS=...   instead of --quick (e.g. "--quick" is the default)
# Installs Debian's `chromium` with apt-get when missing (needs root); if that is not
# possible the check is SKIPPED, loudly, with exit status 0 unless REQUIRE_CHROMIUM=1.
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-target/report-page-check}
args=${REPORT_ARGS:---quick}

# The committed sample shows the pages and headings the code lists (no browser needed).
contents=$(mktemp)
trap 'rm -f "$contents"' EXIT
cargo run --release -q -- report --contents >"$contents"
if command -v python3 >/dev/null 2>&1; then
    echo "== docs/report-sample against modred report --contents" >&2
    python3 scripts/report-contents.py "$contents" docs/report-sample/index.html
else
    echo "check-report-page: python3 missing: the sample's contents are not checked" >&2
fi

find_chromium() {
    for c in chromium chromium-browser google-chrome; do
        if command -v "$c" >/dev/null 2>&1; then
            command -v "$c"
            return 0
        fi
    done
    return 1
}

skip() {
    echo "check-report-page: SKIPPED: $*" >&2
    if [ "${REQUIRE_CHROMIUM:-0}" = 1 ]; then
        exit 1
    fi
    exit 0
}

if ! browser=$(find_chromium); then
    echo "check-report-page: chromium not found; installing it with apt-get" >&2
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium) >&2 ||
            skip "apt-get install chromium failed"
    else
        skip "no chromium and cannot install it (needs root and apt-get)"
    fi
    browser=$(find_chromium) || skip "chromium installed but not on PATH"
fi
command -v python3 >/dev/null 2>&1 || skip "python3 is needed to check the screenshot"

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
echo "== modred report $args --out $out" >&2
# shellcheck disable=SC2086
cargo run --release -q -- report $args --out "$out"
page="$out/index.html"
[ -s "$page" ] || { echo "check-report-page: FAILED: $page not written" >&2; exit 1; }
python3 scripts/report-contents.py "$contents" "$page"
# Every line figure: a legend entry per series, one colour per algorithm across figures.
python3 scripts/check-figures.py "$out"

# Chromium in a container: no sandbox (we may be root), no GPU, its own profile.
profile=$(mktemp -d)
trap 'rm -rf "$profile" "$contents"' EXIT
chrome() {
    timeout 180 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --no-first-run --user-data-dir="$profile" "$@" 2>/dev/null
}

echo "== $browser --dump-dom" >&2
chrome --dump-dom "file://$page" >"$out/dom.html"
shot="$out/screenshot.png"
echo "== $browser --screenshot" >&2
chrome --screenshot="$shot" --window-size=1280,6000 "file://$page" >/dev/null
[ -s "$shot" ] || { echo "check-report-page: FAILED: no screenshot" >&2; exit 1; }
if [ -n "${SCREENSHOT:-}" ]; then
    cp "$shot" "$SCREENSHOT"
fi

python3 - "$out" <<'EOF'
import glob, os, re, sys, zlib, struct

out = sys.argv[1]
dom = open(os.path.join(out, "dom.html"), encoding="utf-8").read()
problems = []

# The DOM as Chromium parsed it: every section, every figure's SVG with drawn shapes.
for sid in ["index", "paper000", "paper001", "paper002", "paper003", "paper004", "corrections", "auto"]:
    if f'id="{sid}"' not in dom:
        problems.append(f"section {sid} missing from the DOM")
figures = sorted(glob.glob(os.path.join(out, "*.svg")))
svgs = re.findall(r"<svg\b.*?</svg>", dom, flags=re.S)
if len(svgs) < len(figures) or not figures:
    problems.append(f"{len(svgs)} <svg> elements in the DOM for {len(figures)} figure files")
for i, svg in enumerate(svgs):
    shapes = len(re.findall(r"<(polyline|path|line|rect|circle)\b", svg))
    texts = len(re.findall(r"<text\b", svg))
    if shapes < 5 or texts < 3:
        problems.append(f"svg #{i} has {shapes} shapes and {texts} texts")
if re.search(r'(src|href)="(https?:)?//', dom):
    problems.append("the page fetches something from the network")

# The screenshot: decode the PNG (8-bit RGB/RGBA, any filter) and count colours.
def pixels(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype = hdr[0], hdr[1], hdr[2], hdr[3]
    assert depth == 8 and ctype in (2, 6), f"unexpected PNG format {depth}/{ctype}"
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows

w, h, bpp, rows = pixels(os.path.join(out, "screenshot.png"))
colours = {}
for y in range(0, h, 2):
    r = rows[y]
    for x in range(0, w * bpp, bpp * 2):
        k = r[x:x + 3]
        colours[k] = colours.get(k, 0) + 1
total = sum(colours.values())
top = max(colours.values())
# The plots' series colours (Tableau 10) must be on screen, not only text.
series = [(31, 119, 180), (255, 127, 14), (44, 160, 44)]
seen = [c for c in series if bytes(c) in colours]
print(f"screenshot {w}x{h}: {len(colours)} distinct colours, the most common covers "
      f"{100 * top / total:.1f} %; series colours seen: {len(seen)}/3; "
      f"DOM: {len(svgs)} svg elements for {len(figures)} figure files")
if len(colours) < 50 or top / total > 0.97:
    problems.append("the screenshot is (nearly) blank")
if len(seen) < 3:
    problems.append("the plots' line colours are not on the screenshot")
if problems:
    print("check-report-page: FAILED:\n  " + "\n  ".join(problems), file=sys.stderr)
    sys.exit(1)
print("check-report-page: OK")
EOF
