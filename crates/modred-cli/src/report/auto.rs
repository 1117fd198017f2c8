//! The crossover map of `auto`: which algorithm the automatic choice
//! ([`modred::modulus::choose`], what `Modulus::new` and every `--algo auto` use) picks
//! for a one-off reduction, a modular multiplication and an exponentiation, by the form
//! and size of the modulus; and the exponentiation method it uses by exponent length.
//! Nothing is timed here: the map shows the rule as this build applies it.

use super::plot::Map;
use super::rng::{nat, SplitMix64};
use super::table::{Cell, Table};
use super::{Context, Section};
use modred::exp::{default_method, Method};
use modred::modulus::choose;
use modred::reduce::NistPrime;
use modred::{Algorithm, Nat, Operation};

/// Modulus sizes of the map (bits): the papers' sizes, the NIST primes' and powers of two
/// up to where the transform reducers take over and beyond.
const SIZES: [u64; 22] = [
    64, 128, 192, 224, 256, 384, 448, 512, 521, 768, 1024, 1536, 2048, 3072, 4096, 8192, 16384,
    32768, 49152, 65536, 131072, 262144,
];

const OPERATIONS: [(Operation, &str); 3] =
    [(Operation::Reduce, "reduce"), (Operation::MulMod, "mulmod"), (Operation::PowMod, "powm")];

/// The forms of modulus: a name and the modulus of that form with `bits` bits, if any.
type Form = (&'static str, fn(&mut SplitMix64, u64) -> Option<Nat>);

const FORMS: [Form; 4] = [
    ("odd", |rng, bits| Some(nat(rng.odd_modulus(bits)))),
    ("even", |rng, bits| {
        let m: Nat = nat(rng.odd_modulus(bits));
        // m + 1 keeps the length unless m is all ones.
        Some(m.add(&Nat::one())).filter(|e| e.bits() == bits)
    }),
    ("2^n − c, one-digit c", |_, bits| {
        // c = 189: the form only (`auto` does not test primality); 2^n − 189 is not a
        // NIST prime at any n.
        Some(&Nat::power_of_two(bits) - &Nat::from(189u64))
    }),
    ("NIST / generalized Mersenne", |_, bits| {
        NistPrime::ALL.iter().find(|p| p.bits() as u64 == bits).map(|p| p.modulus())
    }),
];

/// The choice for every operation, form and size: (operation, form, bits, algorithm).
fn measure() -> Vec<(&'static str, &'static str, u64, Option<Algorithm>)> {
    let mut rng = SplitMix64::new(0xa070);
    let mut out = Vec::new();
    for (op, op_name) in OPERATIONS {
        for (form, make) in FORMS {
            for bits in SIZES {
                let algo = make(&mut rng, bits).map(|m| choose(&m, op));
                out.push((op_name, form, bits, algo));
            }
        }
    }
    out
}

/// `64–4096` or `from 65536` runs of one algorithm along a row.
fn runs(cells: &[(u64, Option<Algorithm>)]) -> String {
    let mut parts: Vec<(Algorithm, u64, u64)> = Vec::new();
    for &(bits, a) in cells {
        let Some(a) = a else { continue };
        match parts.last_mut() {
            Some((last, _, hi)) if *last == a => *hi = bits,
            _ => parts.push((a, bits, bits)),
        }
    }
    parts
        .iter()
        .map(|(a, lo, hi)| {
            if lo == hi {
                format!("`{}` at {lo}", a.name())
            } else {
                format!("`{}` {lo}–{hi}", a.name())
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn method_name(m: Method) -> String {
    match m {
        Method::Binary => "binary".to_string(),
        Method::FixedWindow(w) => format!("fixed window, w = {w}"),
        Method::SlidingWindow(w) => format!("sliding window, w = {w}"),
    }
}

/// Builds the section (no timing: a few milliseconds).
pub fn run(ctx: &Context) -> Result<Section, String> {
    ctx.progress("auto: the choice by modulus form and size");
    let choices = measure();
    let mut categories: Vec<String> = Vec::new();
    for a in Algorithm::ALL {
        if choices.iter().any(|c| c.3 == Some(*a)) {
            categories.push(a.name().to_string());
        }
    }
    let mut rows = Vec::new();
    let mut summary = Table::new(&["operation", "modulus form", "auto picks (bits)"]);
    let mut csv = Table::new(&["operation", "form", "bits", "algorithm"]);
    for (_, op) in OPERATIONS {
        for (form, _) in FORMS {
            let cells: Vec<(u64, Option<Algorithm>)> =
                choices.iter().filter(|c| c.0 == op && c.1 == form).map(|c| (c.2, c.3)).collect();
            rows.push((
                format!("{op} · {form}"),
                cells.iter().map(|c| c.1.map(|a| a.name().to_string())).collect(),
            ));
            summary.push(vec![Cell::text(op), Cell::text(form), Cell::text(runs(&cells))]);
            for (bits, a) in &cells {
                csv.push(vec![
                    Cell::text(op),
                    Cell::text(form),
                    Cell::Int(*bits as i64),
                    a.map_or(Cell::Empty, |a| Cell::text(a.name())),
                ]);
            }
        }
    }
    let map = Map {
        file: "auto_map".to_string(),
        title: "What auto picks, by operation, modulus form and size".to_string(),
        x_label: "modulus bits".to_string(),
        columns: SIZES.iter().map(|b| b.to_string()).collect(),
        rows,
        categories,
    };
    let mut methods = Table::new(&["exponent bits", "method"]);
    let mut methods_csv = Table::new(&["exponent_bits", "method"]);
    for bits in [16u64, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 65536] {
        let m = method_name(default_method(bits));
        methods.push(vec![Cell::Int(bits as i64), Cell::text(m.clone())]);
        methods_csv.push(vec![Cell::Int(bits as i64), Cell::text(m)]);
    }

    let mut md = String::from(
        "# auto — which algorithm modred picks\n\n\
         `auto`, the default algorithm of every command and of `Modulus::new`, picks a \
         reducer by the operation (a one-off reduction has no later operations to spread a \
         precalculation over; an exponentiation is a long chain of multiplications), the \
         form of the modulus (odd, even, a special form of paper 003) and its size. The map \
         is what `modred::modulus::choose` returns in this build for moduli of each form \
         and size (grey: no modulus of that form and size); the thresholds, with the \
         measurements behind them, are documented at `choose` and `special_form`. The \
         other sections measure the algorithms the rule chooses between.\n\n",
    );
    md.push_str("## The crossover map\n");
    md.push_str(&ctx.figure(&map)?);
    md.push_str(&summary.markdown());
    md.push_str("\nData: [auto_map.csv](auto_map.csv).\n\n");
    md.push_str("## Exponentiation method\n\n");
    md.push_str(
        "The method `auto` exponentiates with (`exp::default_method`), by exponent \
         length:\n\n",
    );
    md.push_str(&methods.markdown());
    md.push_str("\nData: [auto_methods.csv](auto_methods.csv).\n");
    Ok(Section {
        file: "auto.md".to_string(),
        title: "auto — which algorithm modred picks".to_string(),
        summary: "the crossover map: the reducer chosen for reduce, mulmod and powm by modulus \
                  form and size, and the exponentiation method by exponent length"
            .to_string(),
        markdown: md,
        csv: vec![
            ("auto_map.csv".to_string(), csv.csv()),
            ("auto_methods.csv".to_string(), methods_csv.csv()),
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_map_has_every_form_that_exists_and_agrees_with_modulus_new() {
        let c = measure();
        assert_eq!(c.len(), OPERATIONS.len() * FORMS.len() * SIZES.len());
        // NIST primes exist at 7 sizes only; the other forms at every size.
        let nist = c.iter().filter(|x| x.1.starts_with("NIST") && x.3.is_some()).count();
        assert_eq!(nist, 3 * 7);
        assert!(c.iter().filter(|x| !x.1.starts_with("NIST")).all(|x| x.3.is_some()));
        // Montgomery never for an even modulus.
        assert!(c
            .iter()
            .filter(|x| x.1 == "even")
            .all(|x| !matches!(x.3, Some(Algorithm::Montgomery | Algorithm::NttMontgomery))));
        // The powm row is what Modulus::new picks.
        let m: Nat = nat(SplitMix64::new(5).odd_modulus(1024));
        let ctx = modred::Modulus::new(&m).unwrap();
        assert_eq!(ctx.algorithm(), choose(&m, Operation::PowMod));
    }

    #[test]
    fn runs_merge_neighbouring_sizes() {
        let cells = [
            (64, Some(Algorithm::Montgomery)),
            (128, Some(Algorithm::Montgomery)),
            (192, None),
            (256, Some(Algorithm::NttMontgomery)),
        ];
        assert_eq!(runs(&cells), "`montgomery` 64–128, `ntt-montgomery` at 256");
    }
}
