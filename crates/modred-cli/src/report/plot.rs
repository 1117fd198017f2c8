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
use plotters::element::DashedPathElement;
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

/// One curve: a name for the legend and its points (x, y), drawn in x order.
#[derive(Clone, Debug)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
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
}

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
            dashed: false,
        });
        self
    }

    /// Adds a published series, drawn dashed.
    pub fn published(mut self, name: &str, points: impl IntoIterator<Item = (f64, f64)>) -> Figure {
        self.series.push(Series {
            name: name.to_string(),
            points: points.into_iter().collect(),
            dashed: true,
        });
        self
    }

    /// A horizontal line across the figure at `y`, named in the legend.
    pub fn reference(mut self, name: &str, y: f64) -> Figure {
        self.references.push((name.to_string(), y));
        self
    }

    /// The points that can be drawn, per series, with x mapped to its axis.
    fn drawable(&self) -> Vec<Vec<(f64, f64)>> {
        self.series
            .iter()
            .map(|s| {
                let mut p: Vec<(f64, f64)> = s
                    .points
                    .iter()
                    .filter(|(x, y)| ok(*x, self.x_scale) && ok(*y, self.y_scale))
                    .map(|&(x, y)| (to_axis(x, self.x_scale), y))
                    .collect();
                p.sort_by(|a, b| a.0.total_cmp(&b.0));
                p
            })
            .collect()
    }

    /// The figure as an SVG document.
    pub fn svg(&self) -> Result<String, String> {
        let pts = self.drawable();
        let all: Vec<(f64, f64)> = pts.iter().flatten().copied().collect();
        if all.is_empty() {
            return Err(format!("figure {}: no points to draw", self.file));
        }
        let (x0, x1) = padded(all.iter().map(|p| p.0), Scale::Linear, 0.03);
        let ys = all
            .iter()
            .map(|p| p.1)
            .chain(self.references.iter().map(|r| r.1).filter(|&y| ok(y, self.y_scale)));
        let (y0, y1) = padded(ys, self.y_scale, 0.08);
        let mut buf = String::new();
        {
            let root = SVGBackend::with_string(&mut buf, SIZE).into_drawing_area();
            root.fill(&WHITE).map_err(|e| self.err(e))?;
            let corner = self.legend_corner(&pts, (x0, x1), (y0, y1));
            match self.y_scale {
                Scale::Log10 | Scale::Log2 => {
                    self.draw(&root, &pts, x0..x1, (y0..y1).log_scale(), corner)?
                }
                Scale::Linear => self.draw(&root, &pts, x0..x1, y0..y1, corner)?,
            }
            root.present().map_err(|e| self.err(e))?;
        }
        // The series' keys and colours, after the opening tag.
        let meta = series_metadata(&self.series, &series_colours(&self.series));
        if let Some(end) = buf.find("<svg").and_then(|i| buf[i..].find('>').map(|j| i + j + 1)) {
            buf.insert_str(end, &format!("\n{meta}"));
        }
        Ok(buf)
    }

    fn err(&self, e: impl std::fmt::Display) -> String {
        format!("figure {}: {e}", self.file)
    }

    /// The corner of the plot where the legend covers the fewest curve points (the
    /// curves sampled along their segments), upper left on a tie.
    fn legend_corner(
        &self,
        pts: &[Vec<(f64, f64)>],
        (x0, x1): (f64, f64),
        (y0, y1): (f64, f64),
    ) -> SeriesLabelPosition {
        let log = self.y_scale != Scale::Linear;
        let fy = |y: f64| if log { (y / y0).ln() / (y1 / y0).ln() } else { (y - y0) / (y1 - y0) };
        let fx = |x: f64| (x - x0) / (x1 - x0);
        let mut samples: Vec<(f64, f64)> = Vec::new();
        for p in pts {
            for w in p.windows(2) {
                for i in 0..=16 {
                    let t = i as f64 / 16.0;
                    let x = fx(w[0].0) + t * (fx(w[1].0) - fx(w[0].0));
                    let y = fy(w[0].1) + t * (fy(w[1].1) - fy(w[0].1));
                    samples.push((x, y));
                }
            }
            samples.extend(p.iter().map(|&(x, y)| (fx(x), fy(y))));
        }
        for (_, y) in &self.references {
            samples.extend((0..=32).map(|i| (i as f64 / 32.0, fy(*y))));
        }
        // The legend's size as fractions of the plot: about 40 % wide, 18 px per entry.
        let entries = self.series.len() + self.references.len();
        let (w, h) = (0.42, ((entries as f64 * 18.0 + 12.0) / 330.0).min(0.9));
        let corners = [
            (SeriesLabelPosition::UpperLeft, (0.0, w), (1.0 - h, 1.0)),
            (SeriesLabelPosition::UpperRight, (1.0 - w, 1.0), (1.0 - h, 1.0)),
            (SeriesLabelPosition::LowerLeft, (0.0, w), (0.0, h)),
            (SeriesLabelPosition::LowerRight, (1.0 - w, 1.0), (0.0, h)),
        ];
        let covered = |(xa, xb): (f64, f64), (ya, yb): (f64, f64)| {
            samples.iter().filter(|(x, y)| (xa..=xb).contains(x) && (ya..=yb).contains(y)).count()
        };
        corners
            .into_iter()
            .min_by_key(|(_, xr, yr)| covered(*xr, *yr))
            .map_or(SeriesLabelPosition::UpperLeft, |c| c.0)
    }

    fn draw<Y>(
        &self,
        root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
        pts: &[Vec<(f64, f64)>],
        x: std::ops::Range<f64>,
        y: Y,
        legend_at: SeriesLabelPosition,
    ) -> Result<(), String>
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
            .margin(12)
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
        let (xa, xb) = (chart.x_range().start, chart.x_range().end);
        for (name, y) in &self.references {
            let color = RGBColor(90, 90, 90);
            let style = ShapeStyle::from(&color).stroke_width(1);
            let dashes = DashedLineSeries::new(vec![(xa, *y), (xb, *y)], 3, 5, style);
            chart.draw_series(dashes).map_err(|e| self.err(e))?.label(name.as_str()).legend(
                move |(lx, ly)| DashedPathElement::new(vec![(lx, ly), (lx + 20, ly)], 3, 5, color),
            );
        }
        let colours = series_colours(&self.series);
        for ((s, p), &color) in self.series.iter().zip(pts).zip(&colours) {
            if p.is_empty() {
                continue;
            }
            let style = ShapeStyle::from(&color).stroke_width(2);
            let legend = if s.dashed {
                chart.draw_series(DashedLineSeries::new(p.clone(), 6, 4, style))
            } else {
                chart.draw_series(LineSeries::new(p.clone(), style))
            }
            .map_err(|e| self.err(e))?;
            let dashed = s.dashed;
            legend.label(s.name.as_str()).legend(move |(lx, ly)| {
                let pts = vec![(lx, ly), (lx + 20, ly)];
                let style = color.stroke_width(2);
                if dashed {
                    DashedPathElement::new(pts, 6, 4, style).into_dyn()
                } else {
                    PathElement::new(pts, style).into_dyn()
                }
            });
            chart
                .draw_series(p.iter().map(|&c| Circle::new(c, 3, color.filled())))
                .map_err(|e| self.err(e))?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(180, 180, 180))
            .position(legend_at)
            .label_font(("sans-serif", 13))
            .draw()
            .map_err(|e| self.err(e))?;
        Ok(())
    }
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
                .map(|&(n, dashed)| Series { name: n.to_string(), points: vec![], dashed })
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

    #[test]
    fn the_legend_goes_where_the_curves_are_not() {
        // A falling curve covers the upper left and the lower right.
        let f = Figure::new("t", "t").series("s", [(1.0, 10.0), (2.0, 9.0), (3.0, 8.0)]);
        let pts = f.drawable();
        let pos = f.legend_corner(&pts, (0.9, 3.1), (7.8, 10.2));
        assert!(matches!(pos, SeriesLabelPosition::UpperRight), "{pos:?}");
        // A rising one: the upper left is free.
        let f = Figure::new("t", "t").series("s", [(1.0, 8.0), (2.0, 9.0), (3.0, 10.0)]);
        let pos = f.legend_corner(&f.drawable(), (0.9, 3.1), (7.8, 10.2));
        assert!(matches!(pos, SeriesLabelPosition::UpperLeft), "{pos:?}");
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
