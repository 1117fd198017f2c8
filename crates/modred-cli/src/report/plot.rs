//! The report's figures: data series drawn as SVG by `plotters` (its SVG backend only, so
//! no font files and no bitmaps: text stays SVG text, drawn by the browser).
//!
//! A section builds a [`Figure`] (line curves against a size, one series per algorithm)
//! or a [`Map`] (a grid of categories, e.g. the algorithm `auto` picks per form and size)
//! and hands it to [`super::Context::figure`], which renders it, keeps the SVG for the
//! page, writes it beside the Markdown and returns the Markdown line that shows it:
//!
//! ```ignore
//! let fig = Figure::new("paper001_figure2", "Speed-up S against the modulus size")
//!     .x("modulus bits", Scale::Log2)
//!     .y("S = Δ(cyclic) / Δ(two full products)", Scale::Linear)
//!     .series("Barrett", points_barrett) // (x, y) pairs
//!     .published("paper", points_paper) // dashed
//!     .reference("paper: 0.75", 0.75); // a horizontal line
//! md.push_str(&ctx.figure(&fig)?);
//! ```

use plotters::coord::ranged1d::{AsRangedCoord, Ranged, ValueFormatter};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Pixel size of a line figure.
const SIZE: (u32, u32) = (760, 440);

/// Colours of the series, in order (Tableau 10: distinct in print and for most colour
/// vision deficiencies).
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// The series key of a name: the algorithm (or quantity) it shows, the same for a
/// measured series and its published counterpart (`", 1993"`, `", 1996 model"`,
/// `" (paper)"` and the like removed), lower case.
pub fn series_key(name: &str) -> String {
    let mut k = name.trim().to_lowercase();
    for suffix in [
        ", 1993",
        ", 1996 model",
        ", 1996",
        ", alpha (paper)",
        ", pentium (paper)",
        " (paper)",
        ", paper",
        " (published)",
    ] {
        if let Some(stripped) = k.strip_suffix(suffix) {
            k = stripped.to_string();
        }
    }
    if let Some((head, _)) = k.split_once(':') {
        // "GMP: mpz_tdiv_r / mpz_mul" is GMP's series.
        if matches!(head, "gmp" | "openssl") {
            k = head.to_string();
        }
    }
    match k.as_str() {
        "interleaved" => "montgomery-interleaved".to_string(),
        "generic gm (solinas)" => "solinas".to_string(),
        "hard-coded gm (nist)" => "nist".to_string(),
        _ => k,
    }
}

/// The palette index of a series key: fixed for the algorithms (one colour per algorithm
/// in every figure), a stable hash of the key for anything else.
fn palette_index(key: &str) -> usize {
    match key {
        "classical" => 0,
        "barrett" | "ntt-barrett" => 1,
        "montgomery" | "ntt-montgomery" => 2,
        "montgomery-interleaved" => 3,
        "hong" => 4,
        "pseudo-mersenne" => 5,
        "solinas" => 6,
        "gmp" => 7,
        "nist" => 8,
        "openssl" => 9,
        _ => key.bytes().fold(17usize, |h, b| h.wrapping_mul(31).wrapping_add(b as usize)) % 10,
    }
}

/// The colours of a figure's series, by their keys ([`series_key`], [`palette_index`]);
/// a key that would take the colour of another key in the same figure takes the next
/// free one, so no two curves of a figure share a colour.
fn series_colours(series: &[Series]) -> Vec<RGBColor> {
    let mut taken: Vec<(String, usize)> = Vec::new();
    series
        .iter()
        .map(|s| {
            let key = series_key(&s.name);
            if let Some((_, i)) = taken.iter().find(|(k, _)| *k == key) {
                return PALETTE[*i];
            }
            let mut i = palette_index(&key);
            while taken.iter().any(|(_, j)| *j == i) && taken.len() < PALETTE.len() {
                i = (i + 1) % PALETTE.len();
            }
            taken.push((key, i));
            PALETTE[i]
        })
        .collect()
}

/// One `<g>` per series naming its key, colour and style, inserted into the SVG so that
/// `scripts/check-report-page.sh` can check the colours across figures and the legends.
fn series_metadata(series: &[Series], colours: &[RGBColor]) -> String {
    let esc = |t: &str| t.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;");
    series
        .iter()
        .zip(colours)
        .map(|(s, c)| {
            format!(
                "<g class=\"series\" data-name=\"{}\" data-key=\"{}\" data-colour=\"#{:02X}{:02X}{:02X}\" data-dashed=\"{}\"/>\n",
                esc(&s.name),
                esc(&series_key(&s.name)),
                c.0,
                c.1,
                c.2,
                s.dashed
            )
        })
        .collect()
}

/// How an axis maps values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Values as they are.
    Linear,
    /// Powers of two evenly spaced (sizes in bits); labels show the values.
    Log2,
    /// Decades evenly spaced (times that span orders of magnitude).
    Log10,
}

/// One curve: a name for the legend, its points (x, y), drawn in x order, and optionally
/// a vertical bar per point (the spread of the values the point summarises).
#[derive(Clone, Debug)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    /// Bars `(x, low, high)`, drawn from `low` to `high` at `x` in the series' colour.
    pub bars: Vec<(f64, f64, f64)>,
    /// Drawn dashed: published figures beside measured ones.
    pub dashed: bool,
}

/// A line figure: series against a common x axis, with optional horizontal reference
/// lines (parity at 1, a published constant).
#[derive(Clone, Debug)]
pub struct Figure {
    /// File name without extension: the SVG is written as `<file>.svg`.
    pub file: String,
    pub title: String,
    pub x_label: String,
    pub x_scale: Scale,
    pub y_label: String,
    pub y_scale: Scale,
    pub series: Vec<Series>,
    pub references: Vec<(String, f64)>,
    /// What the bars are (the legend's last entry and the caption under the figure), set
    /// by [`Figure::bars`]; a figure with bars but no note says "bars: min–max".
    pub bars_note: Option<String>,
}

/// The bars of a series of timings: each point's minimum to maximum over the rounds.
pub const BARS_ROUNDS: &str = "bars: min–max over the timing rounds";

/// The bars of a series of time ratios: the range of the per-round ratios.
pub const BARS_RATIOS: &str = "bars: min–max of the per-round ratios";

impl Figure {
    /// An empty figure with linear axes.
    pub fn new(file: &str, title: &str) -> Figure {
        Figure {
            file: file.to_string(),
            title: title.to_string(),
            x_label: String::new(),
            x_scale: Scale::Linear,
            y_label: String::new(),
            y_scale: Scale::Linear,
            series: Vec::new(),
            references: Vec::new(),
            bars_note: None,
        }
    }

    pub fn x(mut self, label: &str, scale: Scale) -> Figure {
        self.x_label = label.to_string();
        self.x_scale = scale;
        self
    }

    pub fn y(mut self, label: &str, scale: Scale) -> Figure {
        self.y_label = label.to_string();
        self.y_scale = scale;
        self
    }

    /// Adds a measured series (points with a non-finite coordinate, or a non-positive one
    /// on a logarithmic axis, are left out).
    pub fn series(mut self, name: &str, points: impl IntoIterator<Item = (f64, f64)>) -> Figure {
        self.series.push(Series {
            name: name.to_string(),
            points: points.into_iter().collect(),
            bars: Vec::new(),
            dashed: false,
        });
        self
    }

    /// Adds a measured series with a bar per point: `(x, y, (low, high))`, the bar from
    /// `low` to `high` (the spread of what `y` summarises). Say what the bars are with
    /// [`Figure::bars`].
    pub fn series_bars(
        mut self,
        name: &str,
        points: impl IntoIterator<Item = (f64, f64, (f64, f64))>,
    ) -> Figure {
        let (points, bars) =
            points.into_iter().map(|(x, y, (lo, hi))| ((x, y), (x, lo, hi))).unzip();
        self.series.push(Series { name: name.to_string(), points, bars, dashed: false });
        self
    }

    /// What the bars of this figure are (the legend's last entry and the caption), e.g.
    /// [`BARS_ROUNDS`].
    pub fn bars(mut self, note: &str) -> Figure {
        self.bars_note = Some(note.to_string());
        self
    }

    /// Adds a published series, drawn dashed.
    pub fn published(mut self, name: &str, points: impl IntoIterator<Item = (f64, f64)>) -> Figure {
        self.series.push(Series {
            name: name.to_string(),
            points: points.into_iter().collect(),
            bars: Vec::new(),
            dashed: true,
        });
        self
    }

    /// A horizontal line across the figure at `y`, named in the legend.
    pub fn reference(mut self, name: &str, y: f64) -> Figure {
        self.references.push((name.to_string(), y));
        self
    }

    /// Whether some series has a bar to draw.
    fn has_bars(&self) -> bool {
        self.drawable().iter().any(|d| !d.bars.is_empty())
    }

    /// The points and bars that can be drawn, per series, with x mapped to its axis.
    fn drawable(&self) -> Vec<Drawable> {
        let (xs, ys) = (self.x_scale, self.y_scale);
        self.series
            .iter()
            .map(|s| {
                let mut points: Vec<(f64, f64)> = s
                    .points
                    .iter()
                    .filter(|(x, y)| ok(*x, xs) && ok(*y, ys))
                    .map(|&(x, y)| (to_axis(x, xs), y))
                    .collect();
                points.sort_by(|a, b| a.0.total_cmp(&b.0));
                let bars = s
                    .bars
                    .iter()
                    .filter(|(x, lo, hi)| ok(*x, xs) && ok(*lo, ys) && ok(*hi, ys) && lo < hi)
                    .map(|&(x, lo, hi)| (to_axis(x, xs), lo, hi))
                    .collect();
                Drawable { points, bars }
            })
            .collect()
    }

    /// The figure as an SVG document: the plot, then the legend where it covers nothing
    /// drawn (see [`Figure::layout`]).
    pub fn svg(&self) -> Result<String, String> {
        Ok(self.layout()?.svg)
    }

    /// Draws the figure and places its legend: in the first corner of the plotting area
    /// (upper left, upper right, lower left, lower right) where the legend's box touches
    /// no drawn segment, point or bar (with a small clearance); where every corner is
    /// covered, below the figure on a canvas made taller for it.
    fn layout(&self) -> Result<Layout, String> {
        let pts = self.drawable();
        let all: Vec<(f64, f64)> = pts.iter().flat_map(|d| d.points.iter().copied()).collect();
        if all.is_empty() {
            return Err(format!("figure {}: no points to draw", self.file));
        }
        let (x0, x1) = padded(all.iter().map(|p| p.0), Scale::Linear, 0.03);
        let ys = all
            .iter()
            .map(|p| p.1)
            .chain(pts.iter().flat_map(|d| d.bars.iter().flat_map(|b| [b.1, b.2])))
            .chain(self.references.iter().map(|r| r.1).filter(|&y| ok(y, self.y_scale)));
        let (y0, y1) = padded(ys, self.y_scale, 0.08);
        let legend = self.legend_entries(!pts.iter().all(|d| d.bars.is_empty()));
        let (lw, lh) = legend_size(&legend, 1);
        let render = |height: u32| -> Result<(String, Ink), String> {
            let mut buf = String::new();
            let ink = {
                let root = SVGBackend::with_string(&mut buf, (SIZE.0, height)).into_drawing_area();
                root.fill(&WHITE).map_err(|e| self.err(e))?;
                let (area, _) = root.split_vertically(SIZE.1);
                let ink = match self.y_scale {
                    Scale::Log10 | Scale::Log2 => {
                        self.draw(&area, &pts, x0..x1, (y0..y1).log_scale())?
                    }
                    Scale::Linear => self.draw(&area, &pts, x0..x1, y0..y1)?,
                };
                root.present().map_err(|e| self.err(e))?;
                ink
            };
            Ok((buf, ink))
        };
        let (mut buf, ink) = render(SIZE.1)?;
        let fits = lw + 2.0 * LEGEND_INSET <= ink.plot.x1 - ink.plot.x0
            && lh + 2.0 * LEGEND_INSET <= ink.plot.y1 - ink.plot.y0;
        let inside = legend_corners(ink.plot, lw, lh).into_iter().find(|r| fits && ink.is_free(*r));
        let (rect, cols) = match inside {
            Some(r) => (r, 1),
            None => {
                // Every corner covers something: the legend goes below the figure, in as
                // many columns as its width takes, on a canvas made taller for it (the
                // width stays, so the page shows every figure at one scale).
                let room = SIZE.0 as f64 - MARGIN as f64 - ink.plot.x0;
                let cols = (1..=legend.len().max(1))
                    .rev()
                    .find(|&c| legend_size(&legend, c).0 <= room)
                    .unwrap_or(1);
                let (w, h) = legend_size(&legend, cols);
                let y = SIZE.1 as f64;
                buf = render((y + h + LEGEND_INSET).ceil() as u32)?.0;
                (Rect { x0: ink.plot.x0, y0: y, x1: ink.plot.x0 + w, y1: y + h }, cols)
            }
        };
        // The series' keys and colours after the opening tag, the legend before the end.
        let meta = series_metadata(&self.series, &series_colours(&self.series));
        if let Some(end) = buf.find("<svg").and_then(|i| buf[i..].find('>').map(|j| i + j + 1)) {
            buf.insert_str(end, &format!("\n{meta}"));
        }
        if let Some(end) = buf.rfind("</svg>") {
            buf.insert_str(end, &legend_svg(&legend, rect, cols));
        }
        Ok(Layout { svg: buf, legend: rect, inside: inside.is_some(), ink })
    }

    fn err(&self, e: impl std::fmt::Display) -> String {
        format!("figure {}: {e}", self.file)
    }

    /// The legend's entries in order: the reference lines, the series that have points,
    /// then (with `bars`) what the bars are.
    fn legend_entries(&self, bars: bool) -> Vec<LegendEntry> {
        let mut entries: Vec<LegendEntry> = self
            .references
            .iter()
            .map(|(name, _)| LegendEntry { text: name.clone(), mark: Mark::Line(REFERENCE, true) })
            .collect();
        let colours = series_colours(&self.series);
        for ((s, d), &c) in self.series.iter().zip(self.drawable()).zip(&colours) {
            if !d.points.is_empty() {
                entries.push(LegendEntry { text: s.name.clone(), mark: Mark::Line(c, s.dashed) });
            }
        }
        if bars {
            let note = self.bars_note.clone().unwrap_or_else(|| "bars: min–max".to_string());
            entries.push(LegendEntry { text: note, mark: Mark::Bar });
        }
        entries
    }

    /// The caption under the figure: what its bars are, when it has any.
    pub fn caption(&self) -> Option<String> {
        if !self.has_bars() {
            return None;
        }
        let note = self.bars_note.as_deref().unwrap_or("bars: min–max");
        let note = note.strip_prefix("bars: ").unwrap_or(note);
        Some(format!("Vertical bars: {note}, in the series' colour."))
    }

    /// Draws the axes, the reference lines and the series; returns what was drawn, in
    /// pixels, for the legend's placement.
    fn draw<Y>(
        &self,
        root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
        pts: &[Drawable],
        x: std::ops::Range<f64>,
        y: Y,
    ) -> Result<Ink, String>
    where
        Y: AsRangedCoord<Value = f64>,
        Y::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
    {
        // A log2 axis gets a tick at each power of two in range (every tick labelled),
        // all in one notation: 2^n when the largest reaches 2^14, plain numbers otherwise.
        let (x_lo, x_hi) = (x.start, x.end);
        let log2_ticks = ((x_hi.floor() - x_lo.ceil()) as usize + 1).max(2);
        let powers = x_hi.floor() >= 14.0;
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 18))
            .margin(MARGIN)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d::<std::ops::Range<f64>, Y>(x, y)
            .map_err(|e| self.err(e))?;
        let x_scale = self.x_scale;
        let x_format = move |v: &f64| axis_label(*v, x_scale, powers);
        let y_format = |v: &f64| number(*v);
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            // Readable at 100 % zoom: plotters' default is about 10 px.
            .axis_desc_style(("sans-serif", 15))
            .label_style(("sans-serif", 13))
            .x_label_formatter(&x_format)
            .y_label_formatter(&y_format)
            .x_labels(if x_scale == Scale::Log2 { log2_ticks } else { 10 })
            .max_light_lines(1)
            .light_line_style(RGBColor(240, 240, 240))
            .draw()
            .map_err(|e| self.err(e))?;
        let (px, py) = chart.plotting_area().get_pixel_range();
        let mut ink = Ink {
            plot: Rect {
                x0: px.start as f64,
                y0: py.start as f64,
                x1: px.end as f64,
                y1: py.end as f64,
            },
            marks: Vec::new(),
        };
        // A point's pixel position (a macro, not a closure: `chart` is borrowed mutably
        // between the uses).
        macro_rules! at {
            ($p:expr) => {{
                let (a, b) = chart.backend_coord(&$p);
                (a as f64, b as f64)
            }};
        }
        let (xa, xb) = (chart.x_range().start, chart.x_range().end);
        for (_, y) in &self.references {
            if !ok(*y, self.y_scale) {
                continue;
            }
            let style = ShapeStyle::from(&REFERENCE).stroke_width(1);
            let dashes = DashedLineSeries::new(vec![(xa, *y), (xb, *y)], 3, 5, style);
            chart.draw_series(dashes).map_err(|e| self.err(e))?;
            ink.marks.push((at!((xa, *y)), at!((xb, *y)), 1.0));
        }
        let colours = series_colours(&self.series);
        for ((s, d), &color) in self.series.iter().zip(pts).zip(&colours) {
            let p = &d.points;
            if p.is_empty() {
                continue;
            }
            // The bars first, under the curve: a line from low to high with short caps.
            for &(bx, lo, hi) in &d.bars {
                let (a, b) = (at!((bx, lo)), at!((bx, hi)));
                let bar = [(a.0 as i32, a.1 as i32), (b.0 as i32, b.1 as i32)];
                let cap = |y: i32| [(bar[0].0 - CAP, y), (bar[0].0 + CAP, y)];
                for line in [bar.to_vec(), cap(bar[0].1).to_vec(), cap(bar[1].1).to_vec()] {
                    root.draw(&PathElement::new(line, color.stroke_width(1)))
                        .map_err(|e| self.err(e))?;
                }
                ink.marks.push((a, b, 0.5));
                for y in [a.1, b.1] {
                    ink.marks.push(((a.0 - CAP as f64, y), (a.0 + CAP as f64, y), 0.5));
                }
            }
            let style = ShapeStyle::from(&color).stroke_width(2);
            if s.dashed {
                chart.draw_series(DashedLineSeries::new(p.clone(), 6, 4, style))
            } else {
                chart.draw_series(LineSeries::new(p.clone(), style))
            }
            .map_err(|e| self.err(e))?;
            for w in p.windows(2) {
                ink.marks.push((at!(w[0]), at!(w[1]), 1.0));
            }
            chart
                .draw_series(p.iter().map(|&c| Circle::new(c, 3, color.filled())))
                .map_err(|e| self.err(e))?;
            for &c in p {
                ink.marks.push((at!(c), at!(c), 3.0));
            }
        }
        Ok(ink)
    }
}

/// The margin around a line figure's chart, in pixels.
const MARGIN: u32 = 12;

/// The colour of the reference lines.
const REFERENCE: RGBColor = RGBColor(90, 90, 90);

/// Half the width of a bar's caps, in pixels.
const CAP: i32 = 3;

/// The legend's distance from the plotting area's edges, in pixels.
const LEGEND_INSET: f64 = 8.0;

/// Clearance kept between the legend's box and anything drawn, in pixels.
const CLEARANCE: f64 = 2.0;

/// One legend row's height, its font size, and the width allowed per character (generous
/// for 13 px sans-serif, whose characters average about 7 px, so the text stays inside
/// the box whatever font the browser picks).
const ROW: f64 = 18.0;
const FONT: u32 = 13;
const CHAR_W: f64 = 7.8;

/// What a figure's points and bars are once mapped to their axes.
struct Drawable {
    points: Vec<(f64, f64)>,
    bars: Vec<(f64, f64, f64)>,
}

/// A rectangle in pixels: left, top, right, bottom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rect {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

/// A drawn mark in pixels: a segment's two ends and its half width (a point is a segment
/// of length zero, its half width the dot's radius).
pub(crate) type Stroke = ((f64, f64), (f64, f64), f64);

/// What a figure drew, in pixels: the plotting area and every mark.
pub(crate) struct Ink {
    pub plot: Rect,
    pub marks: Vec<Stroke>,
}

impl Ink {
    /// Whether `r`, widened by each mark's half width and [`CLEARANCE`], meets no mark.
    fn is_free(&self, r: Rect) -> bool {
        self.marks.iter().all(|&(a, b, half)| {
            let m = half + CLEARANCE;
            let grown = Rect { x0: r.x0 - m, y0: r.y0 - m, x1: r.x1 + m, y1: r.y1 + m };
            !segment_meets(a, b, grown)
        })
    }
}

/// Whether the segment from `a` to `b` meets the closed rectangle `r` (Liang–Barsky
/// clipping: the segment's parameter interval inside each of the four half-planes).
pub(crate) fn segment_meets(a: (f64, f64), b: (f64, f64), r: Rect) -> bool {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [(-dx, a.0 - r.x0), (dx, r.x1 - a.0), (-dy, a.1 - r.y0), (dy, r.y1 - a.1)] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

/// A drawn figure and where its legend went (the placement is read by the tests).
#[cfg_attr(not(test), allow(dead_code))]
struct Layout {
    svg: String,
    legend: Rect,
    /// Inside the plotting area (else below the figure, the canvas made taller).
    inside: bool,
    ink: Ink,
}

/// How a legend entry is marked: a line (colour, dashed) or a bar.
#[derive(Clone, Copy)]
enum Mark {
    Line(RGBColor, bool),
    Bar,
}

struct LegendEntry {
    text: String,
    mark: Mark,
}

/// The width of one legend entry in pixels: a 24-pixel mark, a gap, then the text (every
/// entry as wide as the longest, so that columns line up).
fn legend_cell(entries: &[LegendEntry]) -> f64 {
    let chars = entries.iter().map(|e| e.text.chars().count()).max().unwrap_or(0);
    24.0 + 6.0 + chars as f64 * CHAR_W
}

/// The gap between legend columns, in pixels.
const COLUMN_GAP: f64 = 16.0;

/// The legend's width and height in pixels with its entries in `cols` columns (row by
/// row), 8 pixels of padding around them.
fn legend_size(entries: &[LegendEntry], cols: usize) -> (f64, f64) {
    let rows = entries.len().div_ceil(cols.max(1));
    let cols = cols.min(entries.len()).max(1) as f64;
    let w = 8.0 + cols * legend_cell(entries) + (cols - 1.0) * COLUMN_GAP + 8.0;
    (w, 6.0 + rows as f64 * ROW + 4.0)
}

/// The legend's four candidate boxes, in order of preference: upper left, upper right,
/// lower left, lower right of the plotting area.
fn legend_corners(plot: Rect, w: f64, h: f64) -> [Rect; 4] {
    let (l, r) = (plot.x0 + LEGEND_INSET, plot.x1 - LEGEND_INSET - w);
    let (t, b) = (plot.y0 + LEGEND_INSET, plot.y1 - LEGEND_INSET - h);
    [(l, t), (r, t), (l, b), (r, b)].map(|(x, y)| Rect { x0: x, y0: y, x1: x + w, y1: y + h })
}

/// The legend as SVG: a group naming its box (`data-x`, `data-y`, `data-width`,
/// `data-height`, read by `scripts/check-figures.py`), a box, and per entry (in `cols`
/// columns, row by row) its mark and text.
fn legend_svg(entries: &[LegendEntry], r: Rect, cols: usize) -> String {
    let cols = cols.max(1);
    let cell = legend_cell(entries);
    let hex = |c: RGBColor| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
    let esc = |t: &str| t.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let mut s = format!(
        "<g class=\"legend\" data-x=\"{}\" data-y=\"{}\" data-width=\"{}\" data-height=\"{}\">\n\
         <rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#FFFFFF\" fill-opacity=\"0.9\" stroke=\"#B4B4B4\"/>\n",
        r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0, r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0
    );
    for (i, e) in entries.iter().enumerate() {
        let y = r.y0 + 6.0 + ROW * ((i / cols) as f64 + 0.5);
        let x = r.x0 + 8.0 + (i % cols) as f64 * (cell + COLUMN_GAP);
        match e.mark {
            Mark::Line(c, dashed) => {
                let dash = if dashed { " stroke-dasharray=\"6 4\"" } else { "" };
                s.push_str(&format!(
                    "<line x1=\"{x}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"{}\" stroke-width=\"2\"{dash}/>\n",
                    x + 24.0,
                    hex(c)
                ));
            }
            Mark::Bar => {
                let (mx, a, b) = (x + 12.0, y - 6.0, y + 6.0);
                s.push_str(&format!(
                    "<path d=\"M{mx} {a}V{b}M{} {a}H{}M{} {b}H{}\" stroke=\"{}\" stroke-width=\"1\" fill=\"none\"/>\n",
                    mx - 3.0,
                    mx + 3.0,
                    mx - 3.0,
                    mx + 3.0,
                    hex(REFERENCE)
                ));
            }
        }
        s.push_str(&format!(
            "<text x=\"{}\" y=\"{y}\" dominant-baseline=\"middle\" font-family=\"sans-serif\" font-size=\"{FONT}\" fill=\"#000000\">\n{}\n</text>\n",
            x + 30.0,
            esc(&e.text)
        ));
    }
    s.push_str("</g>\n");
    s
}

/// Whether `v` can be placed on an axis of this scale.
fn ok(v: f64, scale: Scale) -> bool {
    v.is_finite() && (scale == Scale::Linear || v > 0.0)
}

/// x values are placed by hand on a log2 axis (the ticks then fall on powers of two);
/// logarithmic y axes are plotters' own.
fn to_axis(v: f64, scale: Scale) -> f64 {
    match scale {
        Scale::Log2 => v.log2(),
        Scale::Linear | Scale::Log10 => v,
    }
}

/// The label of an x tick at axis position `v` (`powers`: a log2 axis written as 2^n).
fn axis_label(v: f64, scale: Scale, powers: bool) -> String {
    match scale {
        Scale::Log2 if (v - v.round()).abs() > 1e-9 => String::new(),
        Scale::Log2 if powers => format!("2^{}", v.round()),
        Scale::Log2 => format!("{}", 2f64.powf(v.round())),
        Scale::Linear | Scale::Log10 => number(v),
    }
}

/// A tick value, short: no trailing zeros, thousands without decimals.
fn number(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 {
        "0".to_string()
    } else if !(1e-3..1e6).contains(&a) {
        format!("{v:.0e}")
    } else if a >= 100.0 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The range of `values` widened by `frac` of its width on both sides (by a factor on a
/// logarithmic scale); a single value gets a range around it.
fn padded(values: impl Iterator<Item = f64>, scale: Scale, frac: f64) -> (f64, f64) {
    let (lo, hi) =
        values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    match scale {
        Scale::Linear => {
            let w = if hi > lo { hi - lo } else { lo.abs().max(1.0) };
            (lo - frac * w, hi + frac * w)
        }
        Scale::Log2 | Scale::Log10 => {
            let f = if hi > lo { (hi / lo).powf(frac) } else { 2.0 };
            (lo / f, hi * f)
        }
    }
}

/// One cell of a [`Map`]: the category shown (an algorithm name), or `None` where the row
/// has no value at that column.
pub type MapCell = Option<String>;

/// A grid of categories: rows (e.g. an operation and a modulus form) against columns
/// (sizes), each cell coloured by its category, with a legend.
#[derive(Clone, Debug)]
pub struct Map {
    pub file: String,
    pub title: String,
    pub x_label: String,
    pub columns: Vec<String>,
    pub rows: Vec<(String, Vec<MapCell>)>,
    /// Every category in legend order; it fixes each one's colour.
    pub categories: Vec<String>,
}

impl Map {
    fn err(&self, e: impl std::fmt::Display) -> String {
        format!("figure {}: {e}", self.file)
    }

    /// The map as an SVG document.
    pub fn svg(&self) -> Result<String, String> {
        const LEFT: i32 = 210;
        const TOP: i32 = 44;
        const CELL_H: i32 = 26;
        const LEGEND_ROW: i32 = 22;
        let width: i32 = 960;
        let cols = self.columns.len().max(1) as i32;
        let cell_w = (width - LEFT - 16) / cols;
        let grid_h = CELL_H * self.rows.len() as i32;
        let legend_rows = (self.categories.len() as i32 + 3) / 4;
        let height = TOP + grid_h + 70 + LEGEND_ROW * legend_rows + 12;
        let mut buf = String::new();
        {
            let root = SVGBackend::with_string(&mut buf, (width as u32, height as u32))
                .into_drawing_area();
            root.fill(&WHITE).map_err(|e| self.err(e))?;
            let title = TextStyle::from(("sans-serif", 18).into_font())
                .pos(Pos::new(HPos::Center, VPos::Top));
            root.draw(&Text::new(self.title.as_str(), (width / 2, 10), title))
                .map_err(|e| self.err(e))?;
            let label = TextStyle::from(("sans-serif", 13).into_font());
            let right = label.pos(Pos::new(HPos::Right, VPos::Center));
            let centered = label.pos(Pos::new(HPos::Center, VPos::Top));
            for (r, (name, cells)) in self.rows.iter().enumerate() {
                let y = TOP + CELL_H * r as i32;
                root.draw(&Text::new(name.as_str(), (LEFT - 8, y + CELL_H / 2), right.clone()))
                    .map_err(|e| self.err(e))?;
                for (c, cell) in cells.iter().enumerate() {
                    let x = LEFT + cell_w * c as i32;
                    let fill = match cell {
                        Some(cat) => self.color(cat),
                        None => RGBColor(238, 238, 238),
                    };
                    // One pixel of white between cells.
                    let cell = [(x + 1, y + 1), (x + cell_w - 1, y + CELL_H - 1)];
                    root.draw(&Rectangle::new(cell, fill.filled())).map_err(|e| self.err(e))?;
                }
            }
            // Column labels below the grid, every one that fits.
            let step = (60 / cell_w.max(1) + 1) as usize;
            for (c, col) in self.columns.iter().enumerate().step_by(step) {
                let x = LEFT + cell_w * c as i32 + cell_w / 2;
                root.draw(&Text::new(col.as_str(), (x, TOP + grid_h + 6), centered.clone()))
                    .map_err(|e| self.err(e))?;
            }
            let desc_y = TOP + grid_h + 26;
            root.draw(&Text::new(
                self.x_label.as_str(),
                (LEFT + (cell_w * cols) / 2, desc_y),
                centered.clone(),
            ))
            .map_err(|e| self.err(e))?;
            let legend_left = label.pos(Pos::new(HPos::Left, VPos::Center));
            for (i, cat) in self.categories.iter().enumerate() {
                let (lr, lc) = (i as i32 / 4, i as i32 % 4);
                let x = LEFT + lc * 180;
                let y = desc_y + 30 + lr * LEGEND_ROW;
                root.draw(&Rectangle::new([(x, y - 7), (x + 14, y + 7)], self.color(cat).filled()))
                    .map_err(|e| self.err(e))?;
                root.draw(&Text::new(cat.as_str(), (x + 20, y), legend_left.clone()))
                    .map_err(|e| self.err(e))?;
            }
            root.present().map_err(|e| self.err(e))?;
        }
        Ok(buf)
    }

    /// The colour of a category: its position in [`Map::categories`].
    fn color(&self, cat: &str) -> RGBColor {
        let i = self.categories.iter().position(|c| c == cat).unwrap_or(PALETTE.len() - 3);
        PALETTE[i % PALETTE.len()]
    }
}

/// Either kind of figure.
pub enum Plot<'a> {
    Lines(&'a Figure),
    Map(&'a Map),
}

impl Plot<'_> {
    /// The line under the figure (what its bars are), if any.
    pub fn caption(&self) -> Option<String> {
        match self {
            Plot::Lines(f) => f.caption(),
            Plot::Map(_) => None,
        }
    }

    pub fn file(&self) -> &str {
        match self {
            Plot::Lines(f) => &f.file,
            Plot::Map(m) => &m.file,
        }
    }

    pub fn title(&self) -> &str {
        match self {
            Plot::Lines(f) => &f.title,
            Plot::Map(m) => &m.title,
        }
    }

    pub fn svg(&self) -> Result<String, String> {
        match self {
            Plot::Lines(f) => f.svg(),
            Plot::Map(m) => m.svg(),
        }
    }
}

impl<'a> From<&'a Figure> for Plot<'a> {
    fn from(f: &'a Figure) -> Self {
        Plot::Lines(f)
    }
}

impl<'a> From<&'a Map> for Plot<'a> {
    fn from(m: &'a Map) -> Self {
        Plot::Map(m)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// One colour per algorithm: a published series takes its measured one's colour,
    /// the same algorithm the same colour in every figure, two keys of a figure never one.
    #[test]
    fn colours_follow_the_series_key() {
        let fig = |names: &[(&str, bool)]| {
            let series: Vec<Series> = names
                .iter()
                .map(|&(n, dashed)| Series {
                    name: n.to_string(),
                    points: vec![],
                    bars: vec![],
                    dashed,
                })
                .collect();
            series_colours(&series)
        };
        let a = fig(&[("classical", false), ("barrett", false), ("classical, 1993", true)]);
        assert_eq!(a[0], a[2]);
        assert_ne!(a[0], a[1]);
        let b = fig(&[("barrett", false), ("montgomery", false), ("classical", false)]);
        assert_eq!((b[0], b[2]), (a[1], a[0]));
        assert_eq!(series_key("GMP: mpz_tdiv_r / mpz_mul"), "gmp");
        assert_eq!(series_key("hard-coded GM (nist)"), "nist");
        let c = fig(&[("window multiplication", false), ("squaring", false), ("x", false)]);
        assert!(c[0] != c[1] && c[1] != c[2] && c[0] != c[2]);
    }

    /// Whether the SVG has a text element reading `t`.
    pub fn has_text(svg: &str, t: &str) -> bool {
        svg.contains(&format!(">\n{t}\n</text>"))
    }

    #[test]
    fn a_figure_draws_its_series_and_legend() {
        let f = Figure::new("t", "Times & ratios <test>")
            .x("bits", Scale::Log2)
            .y("ms", Scale::Log10)
            .series("montgomery", [(256.0, 0.1), (512.0, 0.5), (1024.0, 3.0)])
            .published("1993", [(256.0, 0.2), (1024.0, 5.0)])
            .reference("parity", 1.0);
        let svg = f.svg().unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("<polyline") || svg.contains("<path"));
        assert!(has_text(&svg, "montgomery") && has_text(&svg, "1993"));
        assert!(has_text(&svg, "Times &amp; ratios &lt;test&gt;"));
        // Ticks at powers of two.
        assert!(has_text(&svg, "512"), "{svg}");
    }

    /// The marks an SVG draws in the series' and the reference lines' colours, outside the
    /// legend: polyline segments, lines and dots, each with its half width, read back from
    /// the document (the same reading as `scripts/check-figures.py`).
    pub fn drawn_marks(svg: &str) -> Vec<Stroke> {
        let body = match (svg.find("<g class=\"legend\""), svg.rfind("</g>")) {
            (Some(a), Some(b)) if b > a => format!("{}{}", &svg[..a], &svg[b..]),
            _ => svg.to_string(),
        };
        let mut colours: Vec<String> =
            svg.split("data-colour=\"").skip(1).map(|t| t[..7].to_string()).collect();
        colours.push("#5A5A5A".to_string());
        let attr = |tag: &str, name: &str| -> Option<String> {
            let i = tag.find(&format!(" {name}=\""))? + name.len() + 3;
            Some(tag[i..i + tag[i..].find('"')?].to_string())
        };
        let num = |tag: &str, name: &str| attr(tag, name).and_then(|v| v.parse::<f64>().ok());
        let mut marks = Vec::new();
        for tag in body.split('<').skip(1) {
            let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
            let inked = ["stroke", "fill"]
                .iter()
                .any(|a| attr(tag, a).is_some_and(|c| colours.contains(&c.to_uppercase())));
            if !inked {
                continue;
            }
            let half = num(tag, "stroke-width").unwrap_or(1.0) / 2.0;
            if tag.starts_with("polyline") {
                let pts: Vec<(f64, f64)> = attr(tag, "points")
                    .unwrap_or_default()
                    .split_whitespace()
                    .filter_map(|p| p.split_once(','))
                    .map(|(x, y)| (x.parse().unwrap(), y.parse().unwrap()))
                    .collect();
                for w in pts.windows(2) {
                    marks.push((w[0], w[1], half));
                }
                if let [p] = pts[..] {
                    marks.push((p, p, half));
                }
            } else if tag.starts_with("line") {
                let p = |a, b| (num(tag, a).unwrap(), num(tag, b).unwrap());
                marks.push((p("x1", "y1"), p("x2", "y2"), half));
            } else if tag.starts_with("circle") {
                let c = (num(tag, "cx").unwrap(), num(tag, "cy").unwrap());
                marks.push((c, c, num(tag, "r").unwrap()));
            }
        }
        marks
    }

    /// The legend box an SVG names in its `<g class="legend">`.
    pub fn legend_box(svg: &str) -> Rect {
        let g = &svg[svg.find("<g class=\"legend\"").expect("a legend")..];
        let v = |n: &str| -> f64 {
            let i = g.find(&format!("{n}=\"")).unwrap() + n.len() + 2;
            g[i..i + g[i..].find('"').unwrap()].parse().unwrap()
        };
        let (x, y) = (v("data-x"), v("data-y"));
        Rect { x0: x, y0: y, x1: x + v("data-width"), y1: y + v("data-height") }
    }

    /// Asserts that the legend of `svg`, as the document names it, touches no mark the
    /// document draws, and returns the box.
    pub fn assert_legend_free(svg: &str) -> Rect {
        let r = legend_box(svg);
        let marks = drawn_marks(svg);
        assert!(!marks.is_empty(), "no marks read back");
        for (a, b, half) in marks {
            let g = Rect { x0: r.x0 - half, y0: r.y0 - half, x1: r.x1 + half, y1: r.y1 + half };
            assert!(!segment_meets(a, b, g), "legend {r:?} covers {a:?}–{b:?}");
        }
        r
    }

    #[test]
    fn segments_meet_rectangles_where_they_cross_them() {
        let r = Rect { x0: 10.0, y0: 10.0, x1: 20.0, y1: 20.0 };
        // Crossing with both ends outside, one end inside, a point inside, a miss.
        assert!(segment_meets((0.0, 15.0), (30.0, 15.0), r));
        assert!(segment_meets((0.0, 0.0), (30.0, 30.0), r));
        assert!(segment_meets((15.0, 15.0), (40.0, 40.0), r));
        assert!(segment_meets((12.0, 12.0), (12.0, 12.0), r));
        assert!(!segment_meets((0.0, 25.0), (30.0, 25.0), r));
        assert!(!segment_meets((0.0, 9.0), (9.0, 0.0), r));
        assert!(!segment_meets((21.0, 0.0), (21.0, 30.0), r));
        // A diagonal passing by the corner.
        assert!(!segment_meets((0.0, 21.0), (21.0, 31.0), r));
    }

    #[test]
    fn the_legend_goes_where_the_curves_are_not() {
        // A falling curve covers the upper left and the lower right.
        let f = Figure::new("t", "t").series("s", [(1.0, 10.0), (2.0, 9.0), (3.0, 8.0)]);
        let l = f.layout().unwrap();
        assert!(l.inside);
        assert!(l.legend.x0 > (l.ink.plot.x0 + l.ink.plot.x1) / 2.0, "{:?}", l.legend);
        assert!(l.legend.y1 < (l.ink.plot.y0 + l.ink.plot.y1) / 2.0, "{:?}", l.legend);
        assert_eq!(assert_legend_free(&l.svg), l.legend);
        // A rising one: the upper left is free.
        let f = Figure::new("t", "t").series("s", [(1.0, 8.0), (2.0, 9.0), (3.0, 10.0)]);
        let l = f.layout().unwrap();
        assert_eq!(
            l.legend,
            legend_corners(l.ink.plot, l.legend.x1 - l.legend.x0, l.legend.y1 - l.legend.y0)[0]
        );
        assert_legend_free(&l.svg);
    }

    /// Segments, not just points: two points far apart whose line crosses every corner's
    /// box, and a curve filling each corner, leave no corner free: the legend goes below
    /// the figure, the canvas made taller for it.
    #[test]
    fn with_every_corner_covered_the_legend_goes_below_the_plot() {
        let crossing = Figure::new("t", "t")
            .series("up", [(0.0, 0.0), (10.0, 10.0)])
            .series("down", [(0.0, 10.0), (10.0, 0.0)])
            .series("top", [(0.0, 9.6), (10.0, 9.6)])
            .series("bottom", [(0.0, 0.4), (10.0, 0.4)]);
        let l = crossing.layout().unwrap();
        assert!(!l.inside);
        assert!(l.legend.y0 > l.ink.plot.y1, "{:?} {:?}", l.legend, l.ink.plot);
        // Four short names side by side: one row.
        assert!(l.legend.y1 - l.legend.y0 < 2.0 * ROW + 10.0, "{:?}", l.legend);
        let height = (l.legend.y1 + LEGEND_INSET).ceil() as u32;
        assert!(l.svg.starts_with(&format!("<svg width=\"{}\" height=\"{height}\"", SIZE.0)));
        assert_legend_free(&l.svg);
        // Only the points of a segment lie outside the boxes: still covered.
        let f = Figure::new("t", "t")
            .series("a", [(0.0, 5.0), (10.0, 10.0)])
            .series("b", [(0.0, 10.0), (10.0, 5.0)])
            .series("c", [(0.0, 0.0), (10.0, 5.0)])
            .series("d", [(0.0, 5.0), (10.0, 0.0)]);
        let l = f.layout().unwrap();
        assert!(!l.inside, "{:?}", l.legend);
        assert_legend_free(&l.svg);
        // Each corner filled with a cluster of dots and short lines, but one.
        let cluster = |cx: f64, cy: f64| {
            (0..6).map(move |i| (cx + 0.2 * i as f64, cy + if i % 2 == 0 { 0.5 } else { -0.5 }))
        };
        let corners = [(0.0, 9.5), (9.0, 9.5), (0.0, 0.5), (9.0, 0.5)];
        for free in 0..4 {
            let mut f = Figure::new("t", "t");
            for (i, &(x, y)) in corners.iter().enumerate().filter(|(i, _)| *i != free) {
                f = f.series(&format!("s{i}"), cluster(x, y));
            }
            // Points spanning the full ranges, away from the corners.
            f = f.series("span", [(0.0, 5.0), (10.0, 5.0)]).series("v", [(5.0, 0.0), (5.0, 10.0)]);
            let l = f.layout().unwrap();
            assert!(l.inside, "corner {free} is free");
            let boxes =
                legend_corners(l.ink.plot, l.legend.x1 - l.legend.x0, l.legend.y1 - l.legend.y0);
            assert_eq!(l.legend, boxes[free], "corner {free}");
            assert_legend_free(&l.svg);
        }
    }

    /// Figures of random curves (fixed seed): wherever the legend goes, the SVG's legend
    /// box covers none of the SVG's marks.
    #[test]
    fn no_legend_covers_a_mark_on_random_figures() {
        let mut rng = crate::report::rng::SplitMix64::new(7);
        let mut u = move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let (mut inside, mut below) = (0, 0);
        for n in 0..60 {
            let mut f =
                Figure::new("t", "t").y("y", if n % 3 == 0 { Scale::Log10 } else { Scale::Linear });
            for s in 0..1 + n % 4 {
                let pts: Vec<(f64, f64, (f64, f64))> = (0..2 + (n + s) % 6)
                    .map(|i| {
                        let y = 1.0 + 10.0 * u();
                        (i as f64, y, (y, y * (1.0 + 0.3 * u())))
                    })
                    .collect();
                f = f.series_bars(&format!("series {s}"), pts);
            }
            if n % 2 == 0 {
                f = f.reference("one", 1.0 + 10.0 * u());
            }
            let l = f.bars(BARS_ROUNDS).layout().unwrap();
            assert_legend_free(&l.svg);
            if l.inside {
                inside += 1
            } else {
                below += 1
            }
        }
        assert!(inside > 0 && below > 0, "{inside} inside, {below} below");
    }

    #[test]
    fn bars_are_drawn_in_the_series_colour_and_named() {
        let f = Figure::new("t", "t")
            .y("ms", Scale::Log10)
            .series_bars("montgomery", [(1.0, 2.0, (2.0, 3.0)), (2.0, 4.0, (4.0, 4.5))])
            .bars(BARS_ROUNDS);
        let svg = f.svg().unwrap();
        assert!(has_text(&svg, BARS_ROUNDS));
        // Two bars with two caps each, one pixel wide, in montgomery's colour.
        let bars = svg.matches("stroke=\"#2CA02C\" stroke-width=\"1\"").count();
        assert_eq!(bars, 6, "{svg}");
        assert_eq!(
            f.caption().unwrap(),
            "Vertical bars: min–max over the timing rounds, in the series' colour."
        );
        assert!(Figure::new("t", "t").series("s", [(1.0, 1.0)]).caption().is_none());
    }

    #[test]
    fn unusable_points_are_left_out_and_an_empty_figure_is_an_error() {
        let f = Figure::new("t", "t")
            .y("y", Scale::Log10)
            .series("s", [(1.0, 0.0), (2.0, f64::NAN), (3.0, -1.0)]);
        assert!(f.svg().unwrap_err().contains("no points"));
        let f = Figure::new("t", "t").series("s", [(1.0, 5.0)]);
        assert!(f.svg().is_ok(), "a single point gets a range around it");
    }

    #[test]
    fn a_map_colours_cells_by_category() {
        let m = Map {
            file: "m".into(),
            title: "map".into(),
            x_label: "bits".into(),
            columns: vec!["64".into(), "128".into()],
            rows: vec![
                ("reduce".into(), vec![Some("classical".into()), Some("barrett".into())]),
                ("nist".into(), vec![None, Some("nist".into())]),
            ],
            categories: vec!["classical".into(), "barrett".into(), "nist".into()],
        };
        let svg = m.svg().unwrap();
        for t in ["classical", "nist", "reduce", "map", "bits", "128"] {
            assert!(has_text(&svg, t), "{t} missing");
        }
        // Three categories in three colours plus the empty cell's grey.
        for c in ["#1F77B4", "#FF7F0E", "#2CA02C", "#EEEEEE"] {
            assert!(svg.to_uppercase().contains(c), "{c} missing");
        }
        assert_eq!(axis_label(9.0, Scale::Log2, false), "512");
        assert_eq!(axis_label(9.5, Scale::Log2, false), "");
        assert_eq!(axis_label(20.0, Scale::Log2, true), "2^20");
        assert_eq!(number(0.75), "0.75");
        assert_eq!(number(1500.0), "1500");
    }
}
