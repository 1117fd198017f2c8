//! `modred radix2-model` and `modred radix2-vectors`: paper 004's hardware side — the
//! cycle-level model of both carry-save multipliers, and the test vectors for the Verilog
//! testbench in `hw/`.

use super::print_line;
use crate::fail::Fail;
use crate::hw;
use crate::numbers;
use modred_research::radix2_model::Simulation;

/// The usage line of `modred radix2-model`.
const MODEL_USAGE: &str = "modred radix2-model (--bits K [--seed S] | --a A --b B --n N)";

/// `modred radix2-model`.
#[derive(clap::Args, Debug)]
#[command(
    override_usage = MODEL_USAGE,
    after_long_help = "\
Simulates one multiplication A·B on the model of the conventional radix-2
Montgomery multiplier (5-to-2 carry-save adder, k + 1 cycles) and of the
recoded one (k + 2 cycles), checks both against the software algorithms and
prints one JSON object: k, then per design the result (S1 + S2, below 2n, no
final subtraction), the cycles, the critical path in full-adder levels, and
the throughput k / (cycles × levels) in bits per full-adder delay.

example: modred radix2-model --bits 256
example: modred radix2-model --a 5 --b 7 --n 11"
)]
pub struct ModelArgs {
    /// Random operands below a random odd K-bit N (2 to 4096)
    #[arg(long, value_name = "K")]
    pub bits: Option<String>,
    /// The seed for --bits (default 1)
    #[arg(long, value_name = "S")]
    pub seed: Option<String>,
    /// Given operand A (with --b and --n), below N
    #[arg(long, value_name = "A")]
    pub a: Option<String>,
    /// Given operand B (with --a and --n), below N
    #[arg(long, value_name = "B")]
    pub b: Option<String>,
    /// Given odd modulus N (with --a and --b)
    #[arg(long, value_name = "N")]
    pub n: Option<String>,
}

/// The usage line of `modred radix2-vectors`.
const VECTORS_USAGE: &str = "modred radix2-vectors --bits K --count C --out FILE [--seed S]";

/// `modred radix2-vectors`.
#[derive(clap::Args, Debug)]
#[command(
    override_usage = VECTORS_USAGE,
    after_long_help = "\
Writes C lines of eight hexadecimal fields (no 0x):
  A1 A2 B1 B2 N a S_plain S_recoded
with A = A1 + A2 and B = B1 + B2 (carry-save operands) below the odd K-bit N,
a = A·2^-k mod N (the recoded design's correction input) and the expected raw
results from the software: A·B·2^-k mod N and A·B·2^-(k+1) mod N, each plus 0
or N (below 2N). The first lines are edge cases (N = 2^K - 1 and 2^(K-1) + 1,
operands 0, 1, N - 1, odd and even B), the rest random.

example: modred radix2-vectors --bits 64 --count 200 --out hw/vectors_64.hex"
)]
pub struct VectorsArgs {
    /// The operand length, 2 to 4096
    #[arg(long, value_name = "K")]
    pub bits: Option<String>,
    /// The number of vectors, 1 to 100000
    #[arg(long, value_name = "C")]
    pub count: Option<String>,
    /// The file to write ('-' for stdout)
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub out: Option<String>,
    /// The random seed (default 1)
    #[arg(long, value_name = "S")]
    pub seed: Option<String>,
}

fn number_option(
    value: &Option<String>,
    name: &str,
    lo: u64,
    hi: u64,
) -> Result<Option<u64>, Fail> {
    let Some(text) = value.as_deref() else { return Ok(None) };
    match text.parse::<u64>() {
        Ok(v) if text.bytes().all(|c| c.is_ascii_digit()) && (lo..=hi).contains(&v) => Ok(Some(v)),
        _ => Err(Fail::new(format!(
            "invalid --{name} '{}': expected a whole number from {lo} to {hi}",
            crate::fail::abbreviate(text)
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
pub fn model(p: &ModelArgs) -> Result<(), Fail> {
    let given = [&p.a, &p.b, &p.n].map(|o| o.as_deref());
    let (a, b, n) = match (p.bits.as_deref(), given) {
        (Some(_), [None, None, None]) => {
            let bits = number_option(&p.bits, "bits", 2, hw::MAX_BITS)?.unwrap_or(2);
            let seed = number_option(&p.seed, "seed", 0, u64::MAX)?.unwrap_or(1);
            hw::random_operands(bits, seed)
        }
        (None, [Some(a), Some(b), Some(n)]) => {
            if p.seed.is_some() {
                return Err(Fail::new("--seed goes with --bits, not with --a --b --n"));
            }
            let parse = |t: &str, role: &str| numbers::parse(t, role).map_err(Fail::new);
            (parse(a, "A")?, parse(b, "B")?, parse(n, "N")?)
        }
        _ => {
            return Err(Fail::new(format!(
                "give either --bits K or all of --a, --b and --n (usage: {MODEL_USAGE})"
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
pub fn vectors(p: &VectorsArgs) -> Result<(), Fail> {
    let required = |value: &Option<String>, name: &str| {
        value
            .clone()
            .ok_or_else(|| Fail::new(format!("missing option --{name} (usage: {VECTORS_USAGE})")))
    };
    let out = required(&p.out, "out")?;
    required(&p.bits, "bits")?;
    required(&p.count, "count")?;
    let bits = number_option(&p.bits, "bits", 2, hw::MAX_BITS)?.unwrap_or(2);
    let count = number_option(&p.count, "count", 1, 100_000)?.unwrap_or(1) as usize;
    let seed = number_option(&p.seed, "seed", 0, u64::MAX)?.unwrap_or(1);
    let text = hw::vectors(bits, count, seed)?;
    let out = out.as_str();
    if out == "-" {
        return print_line(text.trim_end());
    }
    std::fs::write(out, text)
        .map_err(|e| Fail::new(format!("cannot write '{}': {e}", crate::fail::abbreviate(out))))
}
