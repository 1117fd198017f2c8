#!/usr/bin/env bash
# Regenerates docs/report-sample/ from the code: runs the quick report, copies its
# index.html, takes the screenshot (headless Chromium, when installed), writes the
# sample's README from what was actually built, and checks the sample against the
# report's contents list (kept in code: `modred report --contents`).
#
# Usage: scripts/regenerate-report-sample.sh
# Env:   ANCHORS=0   build without the `anchors` feature (no GMP and OpenSSL columns);
#                    the default builds with it (needs m4, libssl-dev, pkg-config)
set -euo pipefail
cd "$(dirname "$0")/.."

sample=docs/report-sample
features=()
if [ "${ANCHORS:-1}" = 1 ]; then
    features=(--features anchors)
fi
out=$(mktemp -d)
profile=$(mktemp -d)
trap 'rm -rf "$out" "$profile"' EXIT

echo "== modred report --quick ${features[*]}" >&2
cargo run --release -q "${features[@]}" -- report --quick --out "$out"
cp "$out/index.html" "$sample/index.html"

shot=none
for c in chromium chromium-browser google-chrome; do
    if command -v "$c" >/dev/null 2>&1; then
        echo "== $c --screenshot" >&2
        timeout 180 "$c" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
            --user-data-dir="$profile" --force-device-scale-factor=0.6 \
            --screenshot="$sample/screenshot.png" --window-size=2134,2000 \
            "file://$(cd "$out" && pwd)/index.html" >/dev/null 2>&1
        shot=yes
        break
    fi
done
if [ "$shot" = none ]; then
    echo "regenerate-report-sample: no Chromium: the screenshot is removed, not left stale" >&2
    rm -f "$sample/screenshot.png"
fi

if [ "${#features[@]}" -gt 0 ]; then
    built="built with \`--features anchors\` (GMP and OpenSSL columns)"
else
    built="built without the \`anchors\` feature (no GMP and OpenSSL columns; the page says so)"
fi
if [ "$shot" = yes ]; then
    shot_text="\`screenshot.png\` is the top of the page in headless Chromium at 60 % scale
(\`scripts/check-report-page.sh\` takes such a screenshot and checks it)."
else
    shot_text="No screenshot: Chromium was not installed when it was regenerated."
fi
cat >"$sample/README.md" <<MD
# Sample report

\`index.html\` is the page \`modred report --quick\` wrote, $built, on
$(uname -m) $(nproc) cores ($(date -u +%Y-%m-%d)); on a shared machine the ratios are noisy
(see the page's "How the figures are measured"). Only the page is kept here; a run also
writes the Markdown pages, the CSV files and the SVG figures it links to beside it.
$shot_text

It is regenerated from the code by \`scripts/regenerate-report-sample.sh\`, and CI checks
that its pages and the headings of their tables and figures are those the code lists
(\`modred report --contents\`; the test \`the_committed_sample_matches_the_report_contents\`
and \`scripts/check-report-page.sh\`).

To make your own: \`cargo run --release -- report --quick --out DIR\` (add
\`--features anchors\` after \`--release\` for the GMP and OpenSSL columns), then open
\`DIR/index.html\`.
MD

contents="$out/contents.txt"
cargo run --release -q "${features[@]}" -- report --contents >"$contents"
python3 scripts/report-contents.py "$contents" "$sample/index.html"
echo "regenerate-report-sample: $sample regenerated" >&2
