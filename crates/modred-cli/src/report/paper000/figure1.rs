//! Figure 1 as a table: reduction time against the argument's length, 512-bit modulus.

use super::check::{reductions, Trio, REDUCERS};
use super::{paper, Part};
use crate::report::plot::{Figure, Scale, BARS_ROUNDS};
use crate::report::rng::{digits, nat, SplitMix64};
use crate::report::table::{time_range, Cell, Table};
use crate::report::{Context, Mode};
use modred::{Limb, Nat};
use modred_testkit::timing::{compare, Timing};

const MODULUS_BITS: u32 = 512;
const ARGS: usize = 16;

/// One argument length at one radix: the times of classical, Barrett and Montgomery, and
/// their ratios to Montgomery's.
pub struct Row {
    pub digit_bits: u32,
    pub arg_bits: u32,
    pub t: [Timing; 3],
    /// Time relative to the same reducer's time at twice the modulus' length.
    pub to_full: [f64; 3],
}

impl Row {
    fn to_montgomery(&self, j: usize) -> f64 {
        self.t[j].ratio_to(&self.t[2])
    }
}

/// Argument lengths from the modulus' length to twice it.
fn lengths(mode: Mode) -> Vec<u32> {
    let step = if mode == Mode::Quick { 64 } else { 32 };
    (MODULUS_BITS..=2 * MODULUS_BITS).step_by(step as usize).collect()
}

/// Measures every length at b = 2^64 and b = 2^16 (same modulus, same arguments).
pub fn measure(ctx: &Context) -> Result<Vec<Row>, String> {
    let mut rng = SplitMix64::new(0xf1_0001);
    let m: Nat<u64> = nat(rng.odd_modulus(MODULUS_BITS as u64));
    // Montgomery's bound m·b^k (the others accept more).
    let bound = m.shl(MODULUS_BITS as u64);
    let mut sets = Vec::new();
    for l in lengths(ctx.mode) {
        let lo = Nat::<u64>::power_of_two(l as u64 - 1);
        let hi = Nat::power_of_two(l as u64).min(bound.clone());
        let args: Vec<Nat<u64>> =
            (0..ARGS).map(|_| nat(rng.between(&digits(&lo), &digits(&hi)))).collect();
        sets.push((l, args));
    }
    let mut rows = measure_radix::<u64>(ctx, &m, &sets)?;
    rows.extend(measure_radix::<u16>(ctx, &m, &sets)?);
    Ok(rows)
}

/// All lengths of one radix are timed in one comparison, so that the shape of each curve
/// is measured interleaved too.
fn measure_radix<L: Limb>(
    ctx: &Context,
    m: &Nat<u64>,
    sets: &[(u32, Vec<Nat<u64>>)],
) -> Result<Vec<Row>, String> {
    ctx.progress(&format!("paper 000, figure 1: b = 2^{}, arguments of 512–1024 bits", L::BITS));
    let trio = Trio::<L>::new(&m.to_radix())?;
    let args: Vec<Vec<Vec<L>>> = sets
        .iter()
        .map(|(_, xs)| xs.iter().map(|x| x.to_radix::<L>().into_limbs()).collect())
        .collect();
    for ((l, _), a) in sets.iter().zip(&args) {
        trio.check(a, &format!("figure 1, b = 2^{}, {l}-bit arguments", L::BITS))?;
    }
    let mut cands = Vec::new();
    for a in &args {
        cands.extend(reductions(&trio, a));
    }
    let t = compare(&ctx.short_ops, &mut cands);
    let full = &t[t.len() - 3..];
    Ok(sets
        .iter()
        .zip(t.chunks(3))
        .map(|((l, _), t)| Row {
            digit_bits: L::BITS,
            arg_bits: *l,
            to_full: [0, 1, 2].map(|j| t[j].ratio_to(&full[j])),
            t: [t[0].clone(), t[1].clone(), t[2].clone()],
        })
        .collect())
}

/// The argument length (bits) at which reducer `j` becomes as slow as Montgomery, by
/// linear interpolation between measured lengths; `None` if it never does.
fn crossover(rows: &[&Row], j: usize) -> Option<f64> {
    rows.windows(2).find_map(|w| {
        let (a, b) = (w[0].to_montgomery(j) - 1.0, w[1].to_montgomery(j) - 1.0);
        (a < 0.0 && b >= 0.0).then(|| {
            let f = -a / (b - a);
            w[0].arg_bits as f64 + f * (w[1].arg_bits - w[0].arg_bits) as f64
        })
    })
}

/// The crossover the paper's model implies: classical and Barrett time falling linearly
/// from their Table 2 values at 1024 bits to zero at 512 bits, Montgomery constant.
fn paper_crossover(j: usize) -> f64 {
    let t = paper::table2_ms(MODULUS_BITS, j).expect("512 bits in Table 2");
    let mont = paper::table2_ms(MODULUS_BITS, 2).expect("512 bits in Table 2");
    MODULUS_BITS as f64 * (1.0 + mont / t)
}

pub fn part(rows: &[Row]) -> Part {
    let mut md = Table::new(&[
        "b",
        "argument bits",
        "classical (ns)",
        "barrett (ns)",
        "montgomery (ns)",
        "classical / montgomery",
        "barrett / montgomery",
    ]);
    let mut csv = Table::new(&[
        "digit_bits",
        "argument_bits",
        "classical_ns",
        "barrett_ns",
        "montgomery_ns",
        "classical_to_montgomery",
        "barrett_to_montgomery",
        "classical_to_full_length",
        "barrett_to_full_length",
        "montgomery_to_full_length",
    ]);
    for r in rows {
        let mut c = vec![Cell::text(format!("2^{}", r.digit_bits)), Cell::Int(r.arg_bits as i64)];
        c.extend(r.t.iter().map(|t| Cell::Num(t.ns, 1)));
        c.push(Cell::Num(r.to_montgomery(0), 2));
        c.push(Cell::Num(r.to_montgomery(1), 2));
        md.push(c);
        let mut c = vec![Cell::Int(r.digit_bits as i64), Cell::Int(r.arg_bits as i64)];
        c.extend(r.t.iter().map(|t| Cell::Num(t.ns, 1)));
        c.push(Cell::Num(r.to_montgomery(0), 4));
        c.push(Cell::Num(r.to_montgomery(1), 4));
        c.extend(r.to_full.iter().map(|&v| Cell::Num(v, 4)));
        csv.push(c);
    }
    let mut text = String::new();
    for digit_bits in [64, 16] {
        let rs: Vec<&Row> = rows.iter().filter(|r| r.digit_bits == digit_bits).collect();
        let (Some(first), Some(last)) = (rs.first(), rs.last()) else { continue };
        let cross: Vec<String> = (0..2)
            .map(|j| match crossover(&rs, j) {
                Some(x) => format!("{} becomes slower than it at about {x:.0} bits", REDUCERS[j]),
                None if rs.iter().all(|r| r.to_montgomery(j) < 1.0) => {
                    format!("{} stays faster up to twice the modulus' length", REDUCERS[j])
                }
                None => format!("{} is never faster", REDUCERS[j]),
            })
            .collect();
        text.push_str(&format!(
            "At b = 2^{digit_bits}, a {}-bit argument takes {:.0} % (classical), {:.0} % \
             (Barrett) and {:.0} % (Montgomery) of the time of a {}-bit one; against \
             Montgomery, {} and {}.\n\n",
            first.arg_bits,
            100.0 * first.to_full[0],
            100.0 * first.to_full[1],
            100.0 * first.to_full[2],
            last.arg_bits,
            cross[0],
            cross[1],
        ));
    }
    text.push_str(&format!(
        "1993: classical and Barrett time fell linearly from their maximum at 1024 bits to \
         almost zero at 512, Montgomery's was constant; with Table 2's values at 512 bits \
         that puts the crossovers near {:.0} bits (classical) and {:.0} bits (Barrett). ",
        paper_crossover(0),
        paper_crossover(1)
    ));
    let ours16: Vec<&Row> = rows.iter().filter(|r| r.digit_bits == 16).collect();
    if let Some(x) = crossover(&ours16, 0) {
        if x < paper_crossover(0) - 48.0 {
            text.push_str(&format!(
                "At b = 2^16 our classical crossover ({x:.0} bits) comes earlier because a \
                 full-length classical reduction is relatively slower than in 1993 (Table 2). "
            ));
        }
    }
    let same_shape = rows
        .iter()
        .filter(|r| r.arg_bits == MODULUS_BITS)
        .all(|r| r.to_full[0] < 0.25 && r.to_full[1] < 0.25 && (0.8..1.25).contains(&r.to_full[2]));
    text.push_str(if same_shape {
        "Our curves have the same shape: Montgomery always runs its k steps over the whole \
         argument, the other two only as many steps as the argument has digits beyond the \
         modulus.\n"
    } else {
        "Our curves do not all have that shape (see the table): at the modulus' length \
         classical or Barrett is not close to zero, or Montgomery's time is not flat.\n"
    });
    let intro = "Time to reduce arguments of 512 to 1024 bits modulo a 512-bit modulus (16 \
                 random arguments of each length, the top bit set, below Montgomery's bound \
                 m·b^k); all lengths of one digit size are timed interleaved. The paper plots \
                 this as Figure 1 at b = 2^16.";
    Part {
        heading: "Figure 1 — reduction time against argument length (512-bit modulus)".to_string(),
        body: format!("{intro}\n\n{}\n{text}", md.markdown()),
        csv: vec![("paper000_figure1.csv".to_string(), csv)],
        figures: [16, 64].iter().map(|&d| figure(rows, d)).collect(),
    }
}

/// The paper's Figure 1 at one digit size: time against the argument's length.
fn figure(rows: &[Row], digit_bits: u32) -> Figure {
    let rs: Vec<&Row> = rows.iter().filter(|r| r.digit_bits == digit_bits).collect();
    let mut f = Figure::new(
        &format!("paper000_figure1_b{digit_bits}"),
        &format!("Figure 1: reduction time against argument length, b = 2^{digit_bits}"),
    )
    .x("argument bits (512-bit modulus)", Scale::Linear)
    .y("ns per reduction", Scale::Linear)
    .bars(BARS_ROUNDS);
    for (j, name) in REDUCERS.iter().enumerate() {
        f = f.series_bars(
            name,
            rs.iter().map(|r| (r.arg_bits as f64, r.t[j].ns, time_range(&r.t[j]))),
        );
    }
    f
}
