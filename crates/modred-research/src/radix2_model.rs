//! A cycle-level model of the carry-save datapaths of paper 004 §5: the conventional
//! radix-2 Montgomery multiplier of McIvor et al. (the paper's reference \[5\]) and the
//! modified (recoded) one, both built around a 5-to-2 carry-save adder with the partial
//! sum `S` kept in carry-save form `(S1, S2)`.
//!
//! One netlist description (the private `cycle`) is evaluated two ways: on bits, cycle by cycle, to
//! get the result, and on arrival times, to get the critical path in full-adder levels.
//! The hardware in `hw/` (Verilog) has the same structure.
//!
//! # The datapath (both designs)
//! - Operands in carry-save form: `A = A1 + A2` enters one bit per cycle through a
//!   bit-serial adder (the Barrel Register Full Adder of \[5\]) whose output bit is
//!   registered, so `A_i` comes from a flip-flop; `B = B1 + B2` is held in registers.
//! - Per cycle, every bit column `j` of the 5-to-2 adder is three full adders:
//!   `FA(q·n_j, S1_j, S2_j)`, then `FA(·, ·, X1_j)`, then `FA(·, ·, X2_j)`, carries moving
//!   one column up between levels; the new `(S1, S2)` is the sum and carry vectors shifted
//!   down one bit (the division by 2: column 0's sum is 0 by the choice of `q`).
//!   `q·n` enters at the first level because `q` is computed first — the serial
//!   dependency the paper's §4 describes ("q_i is calculated, then multiplied with n, and
//!   the result is added").
//! - Plain: `X1 = A_i·B1`, `X2 = A_i·B2`, `q = S1_0 ⊕ S2_0 ⊕ A_i·B1_0 ⊕ A_i·B2_0` (a
//!   4-input parity: two XOR levels). `k` loop cycles after one reset cycle: `k + 1`.
//! - Recoded: if `B1_0 ⊕ B2_0 = 1`, both `B1` and `B2` lose their low bit (`make_even`,
//!   which subtracts exactly 1) and `odd = 1`. Loop: `X1 = A_i·x1.1`, `X2 = A_i·x1.2`,
//!   `q = S1_0 ⊕ S2_0` (one XOR level: `x1.1 + x1.2` is even, the `A_i·B_0` term is gone). One final cycle with
//!   `X1 = odd·a`, `X2 = 0`, `q = S1_0 ⊕ S2_0 ⊕ odd·a_0` (a 3-input parity, one full-adder
//!   level; `odd·a_0` comes from a flip-flop set when the loop ends), through a
//!   multiplexer on the `X1` input: `k + 2` cycles.
//!
//! # Delay units
//! One full adder (sum or carry) = one level; a 2- or 3-input XOR = one level (it is a
//! full adder's sum); AND gating and 2-to-1 multiplexers count zero levels (they add a
//! gate delay to both designs alike, apart from the recoded design's one multiplexer).
//! Flip-flops start every path at level 0.

use modred::{Error, Nat};

/// Which of the two multipliers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Design {
    /// The conventional carry-save radix-2 Montgomery multiplier (paper 004 §2, \[5\]).
    Plain,
    /// The modified multiplier with the recoded, even multiplier (paper 004 §4-5).
    Recoded,
}

impl Design {
    /// A short name (`plain`, `recoded`).
    pub const fn name(self) -> &'static str {
        match self {
            Design::Plain => "plain",
            Design::Recoded => "recoded",
        }
    }

    /// Clock cycles per multiplication for `k`-bit operands: one reset cycle, `k` loop
    /// cycles, and for the recoded design the correction cycle.
    pub const fn cycles(self, k: u64) -> u64 {
        match self {
            Design::Plain => k + 1,
            Design::Recoded => k + 2,
        }
    }
}

/// The inputs of one multiplication, in carry-save form where the hardware has them so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operands {
    /// `A = A1 + A2`, below `n`.
    pub a1: Nat,
    /// See `a1`.
    pub a2: Nat,
    /// `B = B1 + B2`, below `n`.
    pub b1: Nat,
    /// See `b1`.
    pub b2: Nat,
    /// The odd modulus; its bit length is `k`.
    pub n: Nat,
    /// The recoded design's correction input `a = A·2^(−k) mod n` (ignored by the plain
    /// design).
    pub corr: Nat,
}

/// What a simulated multiplication produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Simulation {
    /// Which multiplier.
    pub design: Design,
    /// `k`, the bit length of `n`.
    pub k: u64,
    /// The result's carry-save halves: the result is `s1 + s2`.
    pub s1: Nat,
    /// See `s1`.
    pub s2: Nat,
    /// Clock cycles from start to result, counted while simulating.
    pub cycles: u64,
    /// The longest register-to-register path of one cycle, in full-adder levels.
    pub critical_path: u32,
}

impl Simulation {
    /// The result `s1 + s2`: `A·B·2^(−k) mod n` (plain) or `A·B·2^(−(k+1)) mod n`
    /// (recoded), below `2n`, without a final subtraction.
    pub fn result(&self) -> Nat {
        self.s1.add(&self.s2)
    }
}

/// A signal of the netlist, evaluated either as a bit or as an arrival time.
trait Signal: Copy {
    const ZERO: Self;
    /// A full adder: (sum, carry).
    fn fa(a: Self, b: Self, c: Self) -> (Self, Self);
    fn xor(a: Self, b: Self) -> Self;
    fn and(a: Self, b: Self) -> Self;
    fn mux(sel: Self, one: Self, zero: Self) -> Self;
}

impl Signal for bool {
    const ZERO: bool = false;
    fn fa(a: bool, b: bool, c: bool) -> (bool, bool) {
        (a ^ b ^ c, (a & b) | (a & c) | (b & c))
    }
    fn xor(a: bool, b: bool) -> bool {
        a ^ b
    }
    fn and(a: bool, b: bool) -> bool {
        a & b
    }
    fn mux(sel: bool, one: bool, zero: bool) -> bool {
        if sel {
            one
        } else {
            zero
        }
    }
}

/// Arrival time in full-adder levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Level(u32);

impl Signal for Level {
    const ZERO: Level = Level(0);
    fn fa(a: Level, b: Level, c: Level) -> (Level, Level) {
        let t = Level(a.0.max(b.0).max(c.0) + 1);
        (t, t)
    }
    fn xor(a: Level, b: Level) -> Level {
        Level(a.0.max(b.0) + 1)
    }
    fn and(a: Level, b: Level) -> Level {
        a.max(b)
    }
    fn mux(sel: Level, one: Level, zero: Level) -> Level {
        sel.max(one).max(zero)
    }
}

/// The registers a cycle reads (operand registers are constant during a multiplication).
struct Inputs<'a, S> {
    s1: &'a [S],
    s2: &'a [S],
    /// `B1`, `B2` (plain) or `x1.1`, `x1.2` (recoded, made even).
    b1: &'a [S],
    b2: &'a [S],
    n: &'a [S],
    corr: &'a [S],
    /// The registered multiplier bit `A_i`.
    ai: S,
    /// Recoded: `B1_0 ⊕ B2_0`, registered at the start.
    odd: S,
    /// Recoded: the correction cycle is running (a control flip-flop).
    last: S,
    /// Recoded: `last·odd·a_0`, q's third input, from a flip-flop set when the loop ends.
    qfix: S,
}

/// One clock cycle: the new `(S1, S2)` and the dropped column-0 sum bit (0 when correct).
fn cycle<S: Signal>(design: Design, r: &Inputs<'_, S>) -> (Vec<S>, Vec<S>, S) {
    let w = r.s1.len();
    let (x1, x2, q): (Vec<S>, Vec<S>, S) = match design {
        Design::Plain => {
            let x1: Vec<S> = r.b1.iter().map(|&b| S::and(r.ai, b)).collect();
            let x2: Vec<S> = r.b2.iter().map(|&b| S::and(r.ai, b)).collect();
            // q = S1_0 ⊕ S2_0 ⊕ A_i·B1_0 ⊕ A_i·B2_0: a 3-input parity, then one more XOR.
            let q = S::xor(S::fa(r.s1[0], r.s2[0], x1[0]).0, x2[0]);
            (x1, x2, q)
        }
        Design::Recoded => {
            let x1: Vec<S> = (0..w)
                .map(|j| S::mux(r.last, S::and(r.odd, r.corr[j]), S::and(r.ai, r.b1[j])))
                .collect();
            let x2: Vec<S> =
                r.b2.iter().map(|&b| S::mux(r.last, S::ZERO, S::and(r.ai, b))).collect();
            // Loop: x1.1 + x1.2 is even, so q = S1_0 ⊕ S2_0 (x1.1_0 = x1.2_0 = 1 is
            // possible and adds 2·A_i to column 0); last cycle: q = S1_0 ⊕ S2_0 ⊕ odd·a_0.
            // Both are one 3-input parity of flip-flops (qfix = last·odd·a_0).
            let q = S::fa(r.s1[0], r.s2[0], r.qfix).0;
            (x1, x2, q)
        }
    };
    // Three levels of full adders, carries moving one column up.
    let level = |a: &[S], b: &[S], c: &[S]| -> (Vec<S>, Vec<S>) {
        let mut sum = vec![S::ZERO; w];
        let mut carry = vec![S::ZERO; w + 1];
        for j in 0..w {
            let (s, c) = S::fa(a[j], b[j], c[j]);
            sum[j] = s;
            carry[j + 1] = c;
        }
        (sum, carry)
    };
    let qn: Vec<S> = r.n.iter().map(|&nj| S::and(q, nj)).collect();
    let (u, cu) = level(&qn, r.s1, r.s2);
    let (v, cv) = level(&u, &cu[..w], &x1);
    let (t, ct) = level(&v, &cv[..w], &x2);
    // Divide by two: drop column 0 (its sum must be 0, its carry is 0).
    (t[1..].iter().copied().chain([S::ZERO]).collect(), ct[1..w + 1].to_vec(), t[0])
}

fn bits_of(x: &Nat, w: usize) -> Vec<bool> {
    (0..w as u64).map(|i| x.bit(i)).collect()
}

fn nat_of(bits: &[bool]) -> Nat {
    let mut limbs = vec![0u64; bits.len().div_ceil(64)];
    for (i, &b) in bits.iter().enumerate() {
        limbs[i / 64] |= (b as u64) << (i % 64);
    }
    Nat::from_vec(limbs)
}

/// The critical path of one cycle of `design` in full-adder levels, from the netlist of
/// `cycle` evaluated on arrival times (any width gives the same answer; the model uses
/// the real one).
pub fn critical_path(design: Design, width: usize) -> u32 {
    let z = vec![Level(0); width.max(2)];
    let r = Inputs {
        s1: &z,
        s2: &z,
        b1: &z,
        b2: &z,
        n: &z,
        corr: &z,
        ai: Level(0),
        odd: Level(0),
        last: Level(0),
        qfix: Level(0),
    };
    let (s1, s2, low) = cycle(design, &r);
    s1.iter().chain(&s2).chain([&low]).map(|l| l.0).max().unwrap_or(0)
}

/// The register width of the datapath for `k`-bit operands: `S + A_i·B + q·n < 4n` needs
/// `k + 2` bits; one more keeps every carry-save vector (each at most the total) inside.
pub const fn datapath_width(k: u64) -> usize {
    k as usize + 3
}

/// Runs `design` cycle by cycle on `ops`. Errors: an even or zero `n`, or an operand not
/// below `n`.
pub fn simulate(design: Design, ops: &Operands) -> Result<Simulation, Error> {
    let n = &ops.n;
    if n.is_zero() || !n.is_odd() {
        return Err(Error::InvalidArgument(
            "the radix-2 datapath needs an odd modulus n > 0".to_string(),
        ));
    }
    let a = ops.a1.add(&ops.a2);
    let b = ops.b1.add(&ops.b2);
    if a >= *n || b >= *n || (design == Design::Recoded && ops.corr >= *n) {
        return Err(Error::InvalidArgument(
            "the radix-2 datapath needs A = A1 + A2, B = B1 + B2 and a below n".to_string(),
        ));
    }
    let k = n.bits();
    let w = datapath_width(k);
    let nb = bits_of(n, w);
    let corr = bits_of(&ops.corr, w);
    let mut b1 = bits_of(&ops.b1, w);
    let mut b2 = bits_of(&ops.b2, w);
    let odd = b1[0] ^ b2[0];
    if design == Design::Recoded && odd {
        // make_even on both halves: exactly one of them had its low bit set.
        b1[0] = false;
        b2[0] = false;
    }
    let (a1, a2) = (bits_of(&ops.a1, w), bits_of(&ops.a2, w));
    // Cycle 1: reset S1, S2; the bit-serial adder produces A_0 into its register.
    let mut s1 = vec![false; w];
    let mut s2 = vec![false; w];
    let (mut ai, mut brfa_carry) = bool::fa(a1[0], a2[0], false);
    let mut cycles = 1;
    let loop_cycles = match design {
        Design::Plain => k,
        Design::Recoded => k + 1,
    };
    for i in 0..loop_cycles {
        let last = design == Design::Recoded && i == k;
        let r = Inputs {
            s1: &s1,
            s2: &s2,
            b1: &b1,
            b2: &b2,
            n: &nb,
            corr: &corr,
            ai,
            odd: design == Design::Recoded && odd,
            last,
            qfix: last && odd && corr[0],
        };
        let (n1, n2, low) = cycle(design, &r);
        if low {
            return Err(Error::InvalidArgument(format!(
                "radix-2 datapath model: column 0 is odd in cycle {} (the q logic is wrong)",
                cycles + 1
            )));
        }
        s1 = n1;
        s2 = n2;
        let next = (i + 1) as usize;
        let (abit, c) =
            if next < w { bool::fa(a1[next], a2[next], brfa_carry) } else { (false, false) };
        ai = abit;
        brfa_carry = c;
        cycles += 1;
    }
    Ok(Simulation {
        design,
        k,
        s1: nat_of(&s1),
        s2: nat_of(&s2),
        cycles,
        critical_path: critical_path(design, w),
    })
}

/// A fixed carry-save split of `x`: `x1` takes the bits at even positions and the top
/// bit, `x2` the rest (so both halves are exercised and `x1 + x2 = x`).
pub fn split(x: &Nat) -> (Nat, Nat) {
    let mask_bits: Vec<bool> =
        (0..x.bits()).map(|i| x.bit(i) && (i % 2 == 0 || i + 1 == x.bits())).collect();
    let x1 = nat_of(&mask_bits);
    let x2 = x.checked_sub(&x1).unwrap_or_default();
    (x1, x2)
}

/// The correction input `A·2^(−k) mod n` of the recoded design (`k` = bit length of `n`).
pub fn correction(a: &Nat, n: &Nat) -> Nat {
    let mut t = a.clone();
    for _ in 0..n.bits() {
        if t.is_odd() {
            t = t.add(n);
        }
        t = t.shr(1);
    }
    t.checked_rem(n).unwrap_or_default()
}

/// [`simulate`] with `A` and `B` split by [`split`] and, for the recoded design, the
/// correction computed by [`correction`].
pub fn simulate_binary(design: Design, a: &Nat, b: &Nat, n: &Nat) -> Result<Simulation, Error> {
    let (a1, a2) = split(a);
    let (b1, b2) = split(b);
    let corr = if n.is_zero() { Nat::default() } else { correction(a, n) };
    simulate(design, &Operands { a1, a2, b1, b2, n: n.clone(), corr })
}
