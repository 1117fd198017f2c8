//! `modred radix2-model` and `modred radix2-vectors`: paper 004's hardware side — the
//! cycle-level model of both carry-save multipliers, and the test vectors for the Verilog
//! testbench in `hw/`.

use super::print_line;
use crate::args::{CommandSpec, OptSpec, Parsed};
use crate::fail::Fail;
use crate::hw;
use crate::numbers;
use modred_research::radix2_model::Simulation;

/// `modred radix2-model`.
pub const MODEL: CommandSpec = CommandSpec {
    name: "radix2-model",
    summary: "run both radix-2 Montgomery carry-save datapaths (paper 004 §5) cycle by cycle",
    usage: "radix2-model (--bits K [--seed S] | --a A --b B --n N)",
    options: &[
        OptSpec { name: "bits", value: Some("K") },
        OptSpec { name: "seed", value: Some("S") },
        OptSpec { name: "a", value: Some("A") },
        OptSpec { name: "b", value: Some("B") },
        OptSpec { name: "n", value: Some("N") },
    ],
    positionals: &[],
    details: "Simulates one multiplication A·B on the model of the conventional radix-2\n\
              Montgomery multiplier (5-to-2 carry-save adder, k + 1 cycles) and of the\n\
              recoded one (k + 2 cycles), checks both against the software algorithms and\n\
              prints one JSON object: k, then per design the result (S1 + S2, below 2n, no\n\
              final subtraction), the cycles, the critical path in full-adder levels, and\n\
              the throughput k / (cycles × levels) in bits per full-adder delay.\n\n\
              options:\n  \
              --bits K     random operands below a random odd K-bit N (2 to 4096)\n  \
              --seed S     the seed for --bits (default 1)\n  \
              --a A --b B --n N   given operands: N odd, A and B below N\n\n\
              example: modred radix2-model --bits 256\n\
              example: modred radix2-model --a 5 --b 7 --n 11\n",
};

/// `modred radix2-vectors`.
pub const VECTORS: CommandSpec = CommandSpec {
    name: "radix2-vectors",
    summary: "write test vectors for the radix-2 Montgomery multipliers in hw/",
    usage: "radix2-vectors --bits K --count C --out FILE [--seed S]",
    options: &[
        OptSpec { name: "bits", value: Some("K") },
        OptSpec { name: "count", value: Some("C") },
        OptSpec { name: "out", value: Some("FILE") },
        OptSpec { name: "seed", value: Some("S") },
    ],
    positionals: &[],
    details: "Writes C lines of eight hexadecimal fields (no 0x):\n  \
              A1 A2 B1 B2 N a S_plain S_recoded\n\
              with A = A1 + A2 and B = B1 + B2 (carry-save operands) below the odd K-bit N,\n\
              a = A·2^-k mod N (the recoded design's correction input) and the expected raw\n\
              results from the software: A·B·2^-k mod N and A·B·2^-(k+1) mod N, each plus 0\n\
              or N (below 2N). The first lines are edge cases (N = 2^K - 1 and 2^(K-1) + 1,\n\
              operands 0, 1, N - 1, odd and even B), the rest random.\n\n\
              options:\n  \
              --bits K     the operand length, 2 to 4096\n  \
              --count C    the number of vectors, 1 to 100000\n  \
              --out FILE   the file to write ('-' for stdout)\n  \
              --seed S     the random seed (default 1)\n\n\
              example: modred radix2-vectors --bits 64 --count 200 --out hw/vectors_64.hex\n",
};

fn number_option(p: &Parsed, name: &str, lo: u64, hi: u64) -> Result<Option<u64>, Fail> {
    let Some(text) = p.value(name) else { return Ok(None) };
    match text.parse::<u64>() {
        Ok(v) if text.bytes().all(|c| c.is_ascii_digit()) && (lo..=hi).contains(&v) => Ok(Some(v)),
        _ => Err(Fail::new(format!(
            "invalid --{name} '{}': expected a whole number from {lo} to {hi}",
            crate::args::abbreviate(text)
        ))),
    }
}

fn design_json(s: &Simulation) -> String {
    let throughput = s.k as f64 / (s.cycles as f64 * s.critical_path as f64);
    format!(
        "{{\"result\":\"{}\",\"cycles\":{},\"critical_path_fa_levels\":{},\
         \"throughput_bits_per_fa_delay\":{:.6}}}",
        numbers::format(&s.result(), false),
        s.cycles,
        s.critical_path,
        throughput
    )
}

/// Runs the model and prints the JSON object.
pub fn model(p: &Parsed) -> Result<(), Fail> {
    let given = ["a", "b", "n"].map(|o| p.value(o));
    let (a, b, n) = match (p.value("bits"), given) {
        (Some(_), [None, None, None]) => {
            let bits = number_option(p, "bits", 2, hw::MAX_BITS)?.unwrap_or(2);
            let seed = number_option(p, "seed", 0, u64::MAX)?.unwrap_or(1);
            hw::random_operands(bits, seed)
        }
        (None, [Some(a), Some(b), Some(n)]) => {
            if p.value("seed").is_some() {
                return Err(Fail::new("--seed goes with --bits, not with --a --b --n"));
            }
            let parse = |t: &str, role: &str| numbers::parse(t, role).map_err(Fail::new);
            (parse(a, "A")?, parse(b, "B")?, parse(n, "N")?)
        }
        _ => {
            return Err(Fail::new(format!(
                "give either --bits K or all of --a, --b and --n (usage: modred {})",
                MODEL.usage
            )))
        }
    };
    if n.is_zero() {
        return Err(Fail::from(modred::Error::ZeroModulus));
    }
    let run = hw::model_run(&a, &b, &n)?;
    let agree = run.plain.result() == run.software.0 && run.recoded.result() == run.software.1;
    if !agree {
        return Err(Fail::new("the datapath model disagrees with the software (a bug)"));
    }
    print_line(&format!(
        "{{\"k\":{},\"a\":\"{}\",\"b\":\"{}\",\"n\":\"{}\",\"plain\":{},\"recoded\":{},\
         \"agrees_with_software\":true}}",
        run.plain.k,
        numbers::format(&a, false),
        numbers::format(&b, false),
        numbers::format(&n, false),
        design_json(&run.plain),
        design_json(&run.recoded)
    ))
}

/// Writes the vectors.
pub fn vectors(p: &Parsed) -> Result<(), Fail> {
    let required = |name: &str| {
        p.value(name).ok_or_else(|| {
            Fail::new(format!("missing option --{name} (usage: modred {})", VECTORS.usage))
        })
    };
    let out = required("out")?;
    required("bits")?;
    required("count")?;
    let bits = number_option(p, "bits", 2, hw::MAX_BITS)?.unwrap_or(2);
    let count = number_option(p, "count", 1, 100_000)?.unwrap_or(1) as usize;
    let seed = number_option(p, "seed", 0, u64::MAX)?.unwrap_or(1);
    let text = hw::vectors(bits, count, seed)?;
    if out == "-" {
        return print_line(text.trim_end());
    }
    std::fs::write(out, text)
        .map_err(|e| Fail::new(format!("cannot write '{}': {e}", crate::args::abbreviate(out))))
}
