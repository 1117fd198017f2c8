//! A driver for instruction counts of the hot paths under callgrind: one Montgomery
//! operation repeated `N` times inside `hot_loop`, everything else (modulus, operands,
//! precalculation) set up outside it, so that
//!
//! ```text
//! cargo build --release -p modred-bench --example hot_paths
//! valgrind --tool=callgrind --toggle-collect=hot_loop --callgrind-out-file=/dev/null \
//!     target/release/examples/hot_paths mul 2048 1000
//! ```
//!
//! counts exactly the `N` operations (plus a few instructions of loop and indirect call
//! per iteration): the total `Ir` divided by `N` is the count per operation.
//! `docs/benchmarks.md` has the table and the script that makes it.
//!
//! Operations: `mul`, `sqr` (Montgomery multiplication and squaring of residues, the
//! `montgomery` reducer's `Reducer::mul`/`sqr`), `redc` (its reduction of a double-length
//! product, `reduce_raw`), `powm` (variable-time exponentiation, default sliding window,
//! full-length exponent) and `powm-ct` (the constant-time fixed-window exponentiation of
//! `modred::ct`); through the user-facing `Modulus` (`Modulus::new`, whatever code its plan
//! runs: at 256 bits the fixed-size or 4-digit assembly product), `modulus-mul`,
//! `modulus-sqr`, `modulus-mul-assign` and `modulus-sqr-assign`. Operands come from a fixed
//! seed.

use modred::ct::MontgomeryCt;
use modred::exp::{default_method, pow_vartime};
use modred::reduce::{Montgomery, Reducer, Scratch};
use modred::{Modulus, Nat};
use modred_bench::support::{digits, SplitMix64};
use std::hint::black_box;

/// The measured region: `f` run `n` times. Not inlined and not mangled, so that
/// callgrind's `--toggle-collect=hot_loop` finds it.
#[inline(never)]
#[no_mangle]
pub fn hot_loop(n: u64, f: &mut dyn FnMut()) {
    for _ in 0..n {
        f();
    }
}

fn usage() -> ! {
    eprintln!(
        "usage: hot_paths mul|sqr|redc|powm|powm-ct|modulus-mul|modulus-sqr|modulus-mul-assign|\
         modulus-sqr-assign BITS N   (BITS a multiple of 64)"
    );
    std::process::exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [op, bits, n] = &args[..] else { usage() };
    let bits: usize =
        bits.parse().ok().filter(|b| b % 64 == 0 && *b >= 64).unwrap_or_else(|| usage());
    let n: u64 = n.parse().unwrap_or_else(|_| usage());
    let k = bits / 64;
    let mut rng = SplitMix64::new(0x686f_7470_6174_6873 ^ bits as u64);
    let m = Nat::from_vec(digits(&mut rng, k, true));
    let r = Montgomery::new(&m).expect("odd modulus");
    let a = r.to_residue(&Nat::from_vec(digits(&mut rng, k, false)));
    let b = r.to_residue(&Nat::from_vec(digits(&mut rng, k, false)));
    let e = Nat::from_vec(digits(&mut rng, k, false));
    let mut out = vec![0u64; k];
    let mut scratch = Scratch::new();
    let mut product = vec![0u64; 2 * k];
    product[..k].copy_from_slice(&a);
    product[k..].copy_from_slice(&b[..k]);
    product[2 * k - 1] &= u64::MAX >> 2; // below m·R: the top digit of m has its top bit set
    let ct = MontgomeryCt::new(&m).expect("odd modulus");
    let md = Modulus::new(&m).expect("odd modulus");
    let (ma, mb) = (md.residue(&r.from_residue(&a)), md.residue(&r.from_residue(&b)));
    let mut acc = ma.clone();
    match op.as_str() {
        "mul" => hot_loop(n, &mut || r.mul(&mut out, black_box(&a), black_box(&b), &mut scratch)),
        "sqr" => hot_loop(n, &mut || r.sqr(&mut out, black_box(&a), &mut scratch)),
        "redc" => hot_loop(n, &mut || r.reduce_raw(&mut out, black_box(&product), &mut scratch)),
        "powm" => hot_loop(n, &mut || {
            out = pow_vartime(&r, black_box(&a), &e, default_method(e.bits())).expect("valid");
        }),
        "powm-ct" => {
            let e = e.to_padded(k).expect("k digits");
            hot_loop(n, &mut || ct.pow(&mut out, black_box(&a), black_box(&e)))
        }
        "modulus-mul" => hot_loop(n, &mut || {
            let r = md.mul(black_box(&ma), black_box(&mb));
            black_box(&r);
        }),
        "modulus-sqr" => hot_loop(n, &mut || {
            let r = md.sqr(black_box(&ma));
            black_box(&r);
        }),
        "modulus-mul-assign" => hot_loop(n, &mut || {
            black_box(md.mul_assign(black_box(&mut acc), &mb).is_ok());
        }),
        "modulus-sqr-assign" => hot_loop(n, &mut || {
            black_box(md.sqr_assign(black_box(&mut acc)).is_ok());
        }),
        _ => usage(),
    }
    black_box(&out);
    black_box(&acc);
    let x86 = cfg!(target_arch = "x86_64");
    #[cfg(target_arch = "x86_64")]
    let (bmi2, adx) = (std::is_x86_feature_detected!("bmi2"), std::is_x86_feature_detected!("adx"));
    #[cfg(not(target_arch = "x86_64"))]
    let (bmi2, adx) = (false, false);
    println!("{op} {bits} bits x {n}: done (x86-64 {x86}, BMI2 {bmi2}, ADX {adx}; the MULX/ADX kernels run only with both)");
}
