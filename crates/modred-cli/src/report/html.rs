//! The report as one self-contained HTML page: the index and every section's Markdown
//! rendered in order, the figures inlined as SVG, the CSS inline; nothing is fetched from
//! anywhere (the CSV links point at the files beside the page).
//!
//! The Markdown is the report's own, so the renderer only has to do what the pages use
//! (CommonMark with tables), plus:
//! - headings get ids (GitHub's anchors, prefixed by the section: `paper000-table-1…`),
//!   and links between pages become links within the page (`paper002.md` → `#paper002`,
//!   `#x` inside a section → `#<section>-x`);
//! - a paragraph that is only an image of a figure drawn in this run becomes a
//!   `<figure>` with the SVG inline and the image's text as its caption;
//! - raw HTML in the Markdown is shown as text, never interpreted.

use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// A page of the report as the HTML writer sees it.
pub struct Page<'a> {
    /// Id of the page in the HTML (`paper000`), also the file stem of its Markdown.
    pub id: &'a str,
    pub markdown: &'a str,
}

/// Everything on the HTML page.
pub struct Input<'a> {
    pub title: &'a str,
    /// The index page (machine, method, links to the sections).
    pub index: Page<'a>,
    pub sections: Vec<Page<'a>>,
    /// Figures drawn in this run: file name (`x.svg`) and the SVG document.
    pub figures: &'a [(String, String)],
    /// Built with the `anchors` feature (GMP and OpenSSL columns present).
    pub anchors: bool,
}

/// The notice shown when the GMP and OpenSSL columns are absent.
pub const ANCHORS_ABSENT: &str = "GMP and OpenSSL columns are absent: this modred was built \
    without the `anchors` feature. To show them, install `m4`, `libssl-dev` and \
    `pkg-config` and run `cargo run --release --features anchors -- report` (or build with \
    `cargo build --release -p modred-cli --features anchors`).";

/// What the page says when they are present.
pub const ANCHORS_PRESENT: &str = "Built with the `anchors` feature: GMP (through `rug`) and \
    OpenSSL (`libcrypto`) are timed in the same runs as modred where a table has their \
    columns.";

const CSS: &str = "\
body{font:15px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif;color:#222;margin:0;\
background:#fafafa}\
main{max-width:1060px;margin:0 auto;padding:16px 24px 64px;background:#fff}\
nav{max-width:1060px;margin:0 auto;padding:10px 24px;background:#24323f;color:#fff}\
nav a{color:#cfe3ff;margin-right:14px;text-decoration:none}\
h1{font-size:1.8em;margin:.4em 0}h2{border-bottom:1px solid #ddd;padding-bottom:.2em;\
margin-top:1.6em}h3{margin-top:1.4em}\
section.paper{border-top:3px solid #24323f;margin-top:2.5em}\
table{border-collapse:collapse;margin:.8em 0;font-size:.9em;display:block;overflow-x:auto}\
th,td{border:1px solid #ddd;padding:3px 8px}th{background:#f0f3f6}\
tr:nth-child(even) td{background:#fafbfc}\
code{background:#f3f3f3;padding:0 3px;border-radius:3px;font-size:.92em}\
figure.plot{margin:1.2em 0;text-align:center}figure.plot svg{max-width:100%;height:auto}\
figcaption{font-size:.9em;color:#555}\
.notice{border-left:4px solid #d9822b;background:#fff6ec;padding:8px 12px}\
.notice.ok{border-color:#2b8a3e;background:#eefaf0}";

/// Escapes text for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&#39;"),
            c => s.push(c),
        }
    }
    s
}

/// The whole page.
pub fn page(input: &Input<'_>) -> String {
    let mut out =
        String::from("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str(&format!(
        "<title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n",
        escape(input.title)
    ));
    out.push_str("<nav>");
    out.push_str(&format!("<a href=\"#{}\">{}</a>", escape(input.index.id), escape(input.title)));
    for s in &input.sections {
        out.push_str(&format!("<a href=\"#{}\">{}</a>", escape(s.id), escape(&nav_label(s.id))));
    }
    out.push_str("</nav>\n<main>\n");
    out.push_str(&format!("<section id=\"{}\">\n", escape(input.index.id)));
    let (class, notice) =
        if input.anchors { ("notice ok", ANCHORS_PRESENT) } else { ("notice", ANCHORS_ABSENT) };
    let ids = input.sections.iter().map(|s| s.id).collect::<Vec<_>>();
    let index = markdown(input.index.markdown, input.index.id, &ids, input.figures);
    // The notice goes after the index's title.
    let notice = format!("<p class=\"{class}\">{}</p>\n", inline_code(notice));
    match index.find("</h1>") {
        Some(i) => {
            out.push_str(&index[..i + 5]);
            out.push('\n');
            out.push_str(&notice);
            out.push_str(&index[i + 5..]);
        }
        None => {
            out.push_str(&notice);
            out.push_str(&index);
        }
    }
    out.push_str("</section>\n");
    for s in &input.sections {
        out.push_str(&format!("<section class=\"paper\" id=\"{}\">\n", escape(s.id)));
        out.push_str(&markdown(s.markdown, s.id, &ids, input.figures));
        out.push_str("</section>\n");
    }
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

/// `paper000` → `Paper 000`; other ids as they are.
fn nav_label(id: &str) -> String {
    match id.strip_prefix("paper") {
        Some(n) => format!("Paper {n}"),
        None => {
            let mut c = id.chars();
            c.next().map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
        }
    }
}

/// Escaped text with `code` spans as `<code>`.
fn inline_code(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str(&format!("<code>{}</code>", escape(part)));
        } else {
            out.push_str(&escape(part));
        }
    }
    out
}

/// GitHub's anchor for a heading: lower case, spaces to hyphens, other punctuation
/// dropped.
pub fn anchor(heading: &str) -> String {
    heading
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

/// A link target on the single page: another page's Markdown becomes its section, an
/// anchor becomes the prefixed id; everything else (CSV files, the web) is kept.
fn rewrite_link(dest: &str, section: &str, sections: &[&str]) -> String {
    if let Some(a) = dest.strip_prefix('#') {
        return format!("#{section}-{a}");
    }
    let (file, frag) = dest.split_once('#').unwrap_or((dest, ""));
    if let Some(stem) = file.strip_suffix(".md") {
        if stem == "index" || sections.contains(&stem) {
            let id = if stem == "index" { "index" } else { stem };
            return if frag.is_empty() { format!("#{id}") } else { format!("#{id}-{frag}") };
        }
    }
    dest.to_string()
}

/// One page's Markdown as HTML; its headings one level down (the page title is the
/// page's only `<h1>`) except on the index.
fn markdown(md: &str, section: &str, sections: &[&str], figures: &[(String, String)]) -> String {
    let events: Vec<Event<'_>> = Parser::new_ext(md, Options::ENABLE_TABLES).collect();
    let shift = usize::from(section != "index");
    let mut out: Vec<Event<'_>> = Vec::with_capacity(events.len());
    let mut i = 0;
    while i < events.len() {
        match &events[i] {
            Event::Start(Tag::Heading { level, .. }) => {
                let end = (i..events.len())
                    .find(|&j| matches!(events[j], Event::End(TagEnd::Heading(_))))
                    .unwrap_or(events.len() - 1);
                let text: String = events[i + 1..end]
                    .iter()
                    .filter_map(|e| match e {
                        Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
                        _ => None,
                    })
                    .collect();
                let n = (heading_number(*level) + shift).min(6);
                let id = if shift == 0 && n == 1 {
                    String::new()
                } else {
                    format!(" id=\"{}-{}\"", escape(section), escape(&anchor(&text)))
                };
                out.push(Event::Html(CowStr::from(format!("<h{n}{id}>"))));
                out.extend(events[i + 1..end].iter().cloned().map(|e| safe(e, section, sections)));
                out.push(Event::Html(CowStr::from(format!("</h{n}>\n"))));
                i = end + 1;
            }
            Event::Start(Tag::Paragraph) => match figure_paragraph(&events[i..], figures) {
                Some((len, html)) => {
                    out.push(Event::Html(CowStr::from(html)));
                    i += len;
                }
                None => {
                    out.push(events[i].clone());
                    i += 1;
                }
            },
            e => {
                out.push(safe(e.clone(), section, sections));
                i += 1;
            }
        }
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, out.into_iter());
    html
}

fn heading_number(level: HeadingLevel) -> usize {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

/// Raw HTML as text; links rewritten for the single page; images not drawn in this run
/// left as they are.
fn safe<'a>(e: Event<'a>, section: &str, sections: &[&str]) -> Event<'a> {
    match e {
        Event::Html(t) | Event::InlineHtml(t) => Event::Text(t),
        Event::Start(Tag::Link { link_type, dest_url, title, id }) => Event::Start(Tag::Link {
            link_type,
            dest_url: CowStr::from(rewrite_link(&dest_url, section, sections)),
            title,
            id,
        }),
        e => e,
    }
}

/// A paragraph that is only one image of a drawn figure: the number of events it spans
/// and its HTML.
fn figure_paragraph(events: &[Event<'_>], figures: &[(String, String)]) -> Option<(usize, String)> {
    let Some(Event::Start(Tag::Image { dest_url, .. })) = events.get(1) else { return None };
    let svg = &figures.iter().find(|(f, _)| f.as_str() == dest_url.as_ref())?.1;
    let end = events.iter().position(|e| matches!(e, Event::End(TagEnd::Image)))?;
    if !matches!(events.get(end + 1), Some(Event::End(TagEnd::Paragraph))) {
        return None;
    }
    let caption: String = events[2..end]
        .iter()
        .filter_map(|e| match e {
            Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
            _ => None,
        })
        .collect();
    let html = format!(
        "<figure class=\"plot\">\n{}\n<figcaption>{} (<a href=\"{}\">SVG</a>)</figcaption>\n</figure>\n",
        strip_xml_declaration(svg).trim(),
        escape(&caption),
        escape(dest_url)
    );
    Some((end + 2, html))
}

/// An SVG document without its XML declaration, to sit inside HTML.
fn strip_xml_declaration(svg: &str) -> &str {
    let s = svg.trim_start();
    match s.strip_prefix("<?xml") {
        Some(rest) => rest.find("?>").map_or(s, |i| &rest[i + 2..]),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::plot::{Figure, Scale};

    #[test]
    fn anchors_follow_github() {
        assert_eq!(
            anchor("Table 1 — operation counts (b = 2^16)"),
            "table-1--operation-counts-b--216"
        );
    }

    fn input<'a>(
        sections: Vec<Page<'a>>,
        figures: &'a [(String, String)],
        anchors: bool,
    ) -> Input<'a> {
        Input {
            title: "modred report",
            index: Page {
                id: "index",
                markdown: "# modred report\n\n## Sections\n\n- [Paper 000](paper000.md) — x\n",
            },
            sections,
            figures,
            anchors,
        }
    }

    #[test]
    fn text_and_raw_html_are_escaped() {
        let md = "# P <1>\n\nA & B < C, \"q\" <script>alert(1)</script>\n\n| a | b |\n|---|---|\n| x<y | 1 & 2 |\n";
        let sec = vec![Page { id: "paper000", markdown: md }];
        let html = page(&input(sec, &[], true));
        assert!(!html.contains("<script>"), "raw HTML must not pass");
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("A &amp; B &lt; C"));
        assert!(html.contains("<td>x&lt;y</td>") && html.contains("<td>1 &amp; 2</td>"));
        assert!(html.contains("<h2 id=\"paper000-p-1\">P &lt;1&gt;</h2>"), "{html}");
        assert_eq!(
            escape("<a href='x'>&\"</a>"),
            "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;"
        );
    }

    #[test]
    fn a_figure_is_inlined_as_svg_with_its_caption() {
        let fig = Figure::new("paper000_fig", "Time against bits")
            .x("bits", Scale::Log2)
            .y("ns", Scale::Linear)
            .series("montgomery", [(256.0, 10.0), (512.0, 30.0)]);
        let figures = vec![("paper000_fig.svg".to_string(), fig.svg().unwrap())];
        let md =
            "# Paper\n\n## Figure 1\n\nText before.\n\n![Figure 1: time](paper000_fig.svg)\n\n\
                  ![not drawn](other.svg)\n\nData: [a.csv](a.csv), see [above](#figure-1) \
                  and [paper 2](paper002.md#table-2).\n";
        let sec = vec![
            Page { id: "paper000", markdown: md },
            Page { id: "paper002", markdown: "# Two\n" },
        ];
        let html = page(&input(sec, &figures, true));
        let fig_at = html.find("<figure class=\"plot\">").expect("figure element");
        let svg_at = html[fig_at..].find("<svg").expect("inline svg") + fig_at;
        assert!(html[svg_at..].contains("</svg>\n<figcaption>Figure 1: time"));
        assert!(crate::report::plot::tests::has_text(&html[svg_at..], "montgomery"));
        assert!(!html.contains("<?xml"));
        // Figures not drawn in this run stay images; links are rewritten for one page.
        assert!(html.contains("<img src=\"other.svg\" alt=\"not drawn\""));
        assert!(html.contains("href=\"a.csv\""));
        assert!(
            html.contains("href=\"#paper000-figure-1\"")
                && html.contains("id=\"paper000-figure-1\"")
        );
        assert!(html.contains("href=\"#paper002-table-2\""));
        assert!(html.contains("href=\"#paper000\">Paper 000</a>"), "index link to the section");
        // Self-contained: nothing fetched.
        assert!(
            !html.contains("src=\"http") && !html.contains("<link") && !html.contains("@import")
        );
    }

    #[test]
    fn the_page_says_when_anchors_are_absent() {
        let without = page(&input(Vec::new(), &[], false));
        assert!(without.contains("<p class=\"notice\">GMP and OpenSSL columns are absent"));
        assert!(without.contains("<code>cargo run --release --features anchors -- report</code>"));
        // Right under the title.
        let h1 = without.find("</h1>").unwrap();
        assert!(without[h1..]
            .trim_start_matches("</h1>")
            .trim_start()
            .starts_with("<p class=\"notice\">"));
        let with = page(&input(Vec::new(), &[], true));
        assert!(!with.contains("columns are absent") && with.contains("notice ok"));
    }
}
