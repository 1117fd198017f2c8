//! The CLI's calls into paper 004's hardware side: the cycle-level model of the radix-2
//! Montgomery datapaths ([`modred_research::radix2_model`]) and the test vectors the
//! Verilog testbench in `hw/` reads.

use crate::engine::Number;
use crate::report::rng::{digits, nat, SplitMix64};
use modred::reduce::{Radix2Montgomery, Radix2MontgomeryRecoded};
use modred::{Error, Reducer};
use modred_research::radix2_model::{self as model, Design, Simulation};

/// The bit lengths the model and the vectors accept.
pub const MAX_BITS: u64 = 4096;

/// One multiplication through the model of both designs and through the software.
pub struct ModelRun {
    /// The plain design's simulation.
    pub plain: Simulation,
    /// The recoded design's simulation.
    pub recoded: Simulation,
    /// The software's raw results (below 2n), plain and recoded.
    pub software: (Number, Number),
}

/// The raw software products `A·B·2^(−k) mod n (+n)` and `A·B·2^(−(k+1)) mod n (+n)` and
/// the recoded design's correction input.
pub fn software_raw(a: &Number, b: &Number, n: &Number) -> Result<(Number, Number, Number), Error> {
    let plain = Radix2Montgomery::new(n)?;
    let rec = Radix2MontgomeryRecoded::new(n)?;
    let w = plain.width();
    let operand = |x: &Number, role: &str| {
        if x >= n {
            return Err(Error::InvalidArgument(format!("{role} must be below N")));
        }
        Ok(x.to_padded(w).unwrap_or_else(|| vec![0; w]))
    };
    let (al, bl) = (operand(a, "A")?, operand(b, "B")?);
    let mut s = vec![0u64; w + 1];
    plain.mul_raw(&mut s, &al, &bl);
    let sp = Number::from_limbs(&s);
    let corr = rec.correction(&al);
    rec.mul_raw(&mut s, &al, &bl, &corr);
    Ok((sp, Number::from_limbs(&s), Number::from_limbs(&corr)))
}

/// `A·B` modulo `n` through the model of both datapaths and the software.
pub fn model_run(a: &Number, b: &Number, n: &Number) -> Result<ModelRun, Error> {
    if n.bits() > MAX_BITS {
        return Err(Error::InvalidArgument(format!("N must have at most {MAX_BITS} bits")));
    }
    let (sp, sr, _) = software_raw(a, b, n)?;
    let plain = model::simulate_binary(Design::Plain, a, b, n)?;
    let recoded = model::simulate_binary(Design::Recoded, a, b, n)?;
    Ok(ModelRun { plain, recoded, software: (sp, sr) })
}

/// Random operands for a `bits`-bit odd modulus (seeded): `(A, B, N)`.
pub fn random_operands(bits: u64, seed: u64) -> (Number, Number, Number) {
    let mut rng = SplitMix64::new(seed);
    let n: Number = nat(rng.odd_modulus(bits));
    let a = nat(rng.below(&digits(&n)));
    let b = nat(rng.below(&digits(&n)));
    (a, b, n)
}

fn hex(x: &Number) -> String {
    let s = crate::numbers::format(x, true);
    s.strip_prefix("0x").unwrap_or(&s).to_string()
}

/// `count` test vectors for `bits`-bit operands, one per line, eight hexadecimal fields
/// without prefix: `A1 A2 B1 B2 N a S_plain S_recoded` with `A = A1 + A2`, `B = B1 + B2`,
/// `a = A·2^(−k) mod n` and the expected raw results (below 2n) from the software.
/// The first vectors are edge cases: moduli `2^k − 1` and `2^(k−1) + 1`, operands 0, 1,
/// n − 1, odd and even `B`, carry-save halves with both low bits set.
pub fn vectors(bits: u64, count: usize, seed: u64) -> Result<String, Error> {
    if !(2..=MAX_BITS).contains(&bits) {
        return Err(Error::InvalidArgument(format!(
            "--bits must be a whole number from 2 to {MAX_BITS}"
        )));
    }
    let mut rng = SplitMix64::new(seed);
    let one = Number::one();
    let mut out = String::new();
    for i in 0..count {
        let n: Number = match i {
            0 | 5 => Number::power_of_two(bits).checked_sub(&one).unwrap_or_default(),
            1 | 6 => Number::power_of_two(bits - 1).add(&one),
            _ => nat(rng.odd_modulus(bits)),
        };
        let nm1 = n.checked_sub(&one).unwrap_or_default();
        let r1: Number = nat(rng.below(&digits(&n)));
        let r2: Number = nat(rng.below(&digits(&n)));
        let odd = if r2.is_odd() { r2.clone() } else { r2.add(&one).min(nm1.clone()) };
        let even = if r2.is_odd() { r2.checked_sub(&one).unwrap_or_default() } else { r2 };
        let (a, b) = match i {
            0 => (nm1.clone(), nm1.clone()),
            1 => (Number::default(), r1.clone()),
            2 => (r1.clone(), Number::default()),
            3 => (nm1.clone(), odd.clone()),
            4 => (nm1.clone(), even.clone()),
            5 => (one.clone(), one.clone()),
            6 => (r1.clone(), nm1.clone()),
            _ if i % 2 == 0 => (r1.clone(), odd.clone()),
            _ => (r1.clone(), even.clone()),
        };
        let (sp, sr, corr) = software_raw(&a, &b, &n)?;
        let a1 = nat(rng.below(&digits(&a.add(&one))));
        let a2 = a.checked_sub(&a1).unwrap_or_default();
        // Every fourth vector with an even B > 0 gets two odd halves.
        let b1 = if i % 4 == 3 && !b.is_odd() && !b.is_zero() {
            Number::one()
        } else {
            nat(rng.below(&digits(&b.add(&one))))
        };
        let b2 = b.checked_sub(&b1).unwrap_or_default();
        let fields = [&a1, &a2, &b1, &b2, &n, &corr, &sp, &sr];
        out.push_str(&fields.iter().map(|x| hex(x)).collect::<Vec<_>>().join(" "));
        out.push('\n');
    }
    Ok(out)
}
