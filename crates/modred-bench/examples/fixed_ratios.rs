//! The fixed-size paths against GMP, OpenSSL and our own slice reducers, as ratios measured
//! in one process with the candidates interleaved (the fixed-size paths; paper 003's Table 3):
//!
//! ```text
//! cargo run --release -p modred-bench --features anchors --example fixed_ratios
//! ```
//!
//! Method (for a shared, noisy machine; `modred_testkit::timing`): every candidate runs a
//! batch of `B` operations (about 20 µs), the candidates one after the other, in an order
//! rotated each round, for many rounds; a candidate's time is its *minimum* per-operation
//! time over the rounds (preemption and other tenants only ever add time). Ratios are of
//! those minima, all taken in the same run. The criterion view of the same operations is
//! `cargo bench -p modred-bench --features anchors --bench fixed`.

use modred::field::{PrimeField, Representation};
use modred::reduce::{make, Montgomery, MontgomeryFixed, NistFixed, NistPrime, Scratch};
use modred::{Algorithm, Nat, Reducer};
use modred_bench::support::{below, compare_named, odd, Candidate, Plan, SplitMix64};
use std::hint::black_box;
use std::time::Duration;

/// `rounds` rounds of batches of about 20 µs.
fn plan(rounds: usize) -> Plan {
    Plan::fixed(Duration::from_micros(20), rounds)
}

fn report(title: &str, cands: Vec<(&str, Candidate<'_>)>, base: usize, rounds: usize) {
    let t = compare_named(&plan(rounds), cands);
    println!("\n{title} (ratios to {})", t[base].0);
    for (name, ti) in &t {
        println!("  {:<44} {:>9.1} ns  {:>6.2}", name, ti.ns, ti.ns / t[base].1.ns);
    }
}

fn arr<const N: usize>(v: &[u64]) -> [u64; N] {
    v.try_into().unwrap()
}

fn mont256(rounds: usize) {
    let mut rng = SplitMix64::new(0x256);
    let m = odd(&mut rng, 4);
    let (a, b) = (below(&mut rng, &m), below(&mut rng, &m));
    let fixed = MontgomeryFixed::<4>::new(&m).unwrap();
    let slow = Montgomery::<u64>::new(&m).unwrap();
    let boxed = make::<u64>(Algorithm::Montgomery, &m).unwrap();
    let (ra, rb) = (slow.to_residue(&a), slow.to_residue(&b));
    let (fa, fb) = (arr::<4>(&ra), arr::<4>(&rb));
    let (mut o1, mut o2) = (vec![0u64; 4], vec![0u64; 4]);
    let (mut s1, mut s2) = (Scratch::new(), Scratch::new());
    slow.mul(&mut o1, &ra, &rb, &mut s1);
    assert_eq!(fixed.mul_fixed(&fa, &fb).to_vec(), o1);
    #[allow(unused_mut)] // the anchors feature adds candidates
    let mut c: Vec<(&str, Candidate<'_>)> = vec![
        (
            "modred MontgomeryFixed<4>::mul_fixed",
            Candidate::new(|| {
                black_box(fixed.mul_fixed(black_box(&fa), black_box(&fb)));
            }),
        ),
        (
            "modred MontgomeryFixed<4>::sqr_fixed",
            Candidate::new(|| {
                black_box(fixed.sqr_fixed(black_box(&fa)));
            }),
        ),
        (
            "modred make(montgomery) Reducer::mul",
            Candidate::new(|| {
                boxed.mul(&mut o1, black_box(&ra), black_box(&rb), &mut s1);
            }),
        ),
        (
            "modred slice Montgomery Reducer::mul",
            Candidate::new(|| {
                slow.mul(&mut o2, black_box(&ra), black_box(&rb), &mut s2);
            }),
        ),
    ];
    #[cfg(feature = "anchors")]
    let (mut muln, mut ossl) = {
        use modred_bench::anchors::{GmpMulN, OpensslMontMul};
        let (ah, bh, mh) = (a.to_hex(), b.to_hex(), m.to_hex());
        let muln = GmpMulN::new(&ah, &mh);
        let mut ossl = OpensslMontMul::new(&ah, &bh, &mh);
        ossl.run();
        let want = a.mul(&b).checked_rem(&m).unwrap().to_hex();
        assert_eq!(ossl.result_hex(), want.trim_start_matches("0x"));
        (muln, ossl)
    };
    #[cfg(feature = "anchors")]
    {
        c.push(("GMP mpn_mul_n (4 limbs, product only)", Candidate::new(move || muln.run())));
        c.push(("OpenSSL BN_mod_mul_montgomery", Candidate::new(move || ossl.run())));
    }
    report("256-bit Montgomery modular multiplication", c, 0, rounds);
}

fn p256(rounds: usize) {
    let p = NistPrime::P256.modulus::<u64>();
    let mut rng = SplitMix64::new(0x9256);
    let (a, b) = (below(&mut rng, &p), below(&mut rng, &p));
    let nist = NistFixed::<4>::new(&p).unwrap();
    let (na, nb) = (arr::<4>(&a.to_padded(4).unwrap()), arr::<4>(&b.to_padded(4).unwrap()));
    let std_f = PrimeField::<4>::new(&p, Representation::Standard).unwrap();
    let mont_f = PrimeField::<4>::new(&p, Representation::Montgomery).unwrap();
    let (sa, sb) = (std_f.from_nat(&a), std_f.from_nat(&b));
    let (ma, mb) = (mont_f.from_nat(&a), mont_f.from_nat(&b));
    let want = a.mul(&b).checked_rem(&p).unwrap();
    assert_eq!(Nat::from_limbs(&nist.mul_fixed(&na, &nb)), want);
    assert_eq!(std_f.to_nat(&std_f.mul_ct(&sa, &sb)), want);
    let slow = modred::reduce::Nist::<u64>::new(&p).unwrap();
    let (ra, rb) = (slow.to_residue(&a), slow.to_residue(&b));
    let mut o = vec![0u64; 4];
    let mut s = Scratch::new();
    #[allow(unused_mut)] // the anchors feature adds candidates
    let mut c: Vec<(&str, Candidate<'_>)> = vec![
        (
            "modred NistFixed<4>::mul_fixed",
            Candidate::new(|| {
                black_box(nist.mul_fixed(black_box(&na), black_box(&nb)));
            }),
        ),
        (
            "modred PrimeField<4> standard mul_ct",
            Candidate::new(|| {
                black_box(std_f.mul_ct(black_box(&sa), black_box(&sb)));
            }),
        ),
        (
            "modred PrimeField<4> Montgomery mul",
            Candidate::new(|| {
                black_box(mont_f.mul(black_box(&ma), black_box(&mb)));
            }),
        ),
        (
            "modred slice Nist Reducer::mul",
            Candidate::new(|| {
                slow.mul(&mut o, black_box(&ra), black_box(&rb), &mut s);
            }),
        ),
    ];
    #[cfg(feature = "anchors")]
    let (mut ossl, mut gmp) = {
        use modred_bench::anchors::{GmpMulMod, OpensslNist256, P256_HEX};
        let (ah, bh) = (a.to_hex(), b.to_hex());
        let mut ossl = OpensslNist256::new(&ah, &bh);
        let mut gmp = GmpMulMod::new(&ah, &bh, P256_HEX);
        ossl.run();
        gmp.run();
        assert_eq!(ossl.result_hex(), want.to_hex().trim_start_matches("0x"));
        assert_eq!(gmp.result_hex(), want.to_hex().trim_start_matches("0x"));
        (ossl, gmp)
    };
    #[cfg(feature = "anchors")]
    {
        c.push(("OpenSSL BN_mul + BN_nist_mod_256", Candidate::new(move || ossl.run())));
        c.push(("GMP mpz_mul + mpz_tdiv_r", Candidate::new(move || gmp.run())));
    }
    report("P-256 field multiplication", c, 0, rounds);
}

fn pm(n: u64, c: u64) -> Nat {
    &Nat::power_of_two(n) - &Nat::from(c)
}

/// Per candidate: the two residues, the output and the scratch.
type State = (Vec<u64>, Vec<u64>, Vec<u64>, Scratch<u64>);

fn table3(rounds: usize) {
    let sizes: Vec<(u64, Nat, Nat)> = vec![
        (192, pm(192, 237), NistPrime::P192.modulus()),
        (224, pm(224, 63), NistPrime::P224.modulus()),
        (256, pm(256, 189), NistPrime::P256.modulus()),
        (384, pm(384, 317), NistPrime::P384.modulus()),
        (448, pm(448, 203), NistPrime::P448.modulus()),
        (512, pm(512, 569), NistPrime::P512.modulus()),
        (521, pm(521, 1), NistPrime::P521.modulus()),
    ];
    println!("\nTable 3 sizes: modular multiplication through Reducer::mul as make builds it");
    println!("  bits  pseudo-mersenne/montgomery  nist/montgomery(same prime)  (ns: pm, mont, nist, mont)");
    for (bits, pmp, gm) in sizes {
        let rs: Vec<(Box<dyn Reducer<u64>>, Nat)> = vec![
            (make::<u64>(Algorithm::PseudoMersenne, &pmp).unwrap(), pmp.clone()),
            (make::<u64>(Algorithm::Montgomery, &pmp).unwrap(), pmp.clone()),
            (make::<u64>(Algorithm::Nist, &gm).unwrap(), gm.clone()),
            (make::<u64>(Algorithm::Montgomery, &gm).unwrap(), gm.clone()),
        ];
        let mut rng = SplitMix64::new(bits);
        let mut state: Vec<State> = rs
            .iter()
            .map(|(r, m)| {
                let (a, b) = (below(&mut rng, m), below(&mut rng, m));
                let (ra, rb) = (r.to_residue(&a), r.to_residue(&b));
                let mut out = vec![0u64; r.width()];
                let mut s = Scratch::new();
                r.mul(&mut out, &ra, &rb, &mut s);
                assert_eq!(r.from_residue(&out), a.mul(&b).checked_rem(m).unwrap());
                (ra, rb, out, s)
            })
            .collect();
        let names = ["pm", "mont", "nist", "mont_gm"];
        let c: Vec<(&str, Candidate<'_>)> = rs
            .iter()
            .zip(state.iter_mut())
            .zip(names)
            .map(|(((r, _), (ra, rb, out, s)), name)| {
                let r: &dyn Reducer<u64> = &**r;
                let (ra, rb) = (&*ra, &*rb);
                (name, Candidate::new(move || r.mul(out, black_box(ra), black_box(rb), s)))
            })
            .collect();
        let t: Vec<f64> = compare_named(&plan(rounds), c).iter().map(|(_, t)| t.ns).collect();
        println!(
            "  {bits:>4}  {:>26.2}  {:>27.2}  ({:.1}, {:.1}, {:.1}, {:.1})",
            t[0] / t[1],
            t[2] / t[3],
            t[0],
            t[1],
            t[2],
            t[3]
        );
    }
}

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(300);
    println!("interleaved, {rounds} rounds, minimum per operation (see the example's docs)");
    mont256(rounds);
    p256(rounds);
    table3(rounds);
}
