//! Runs every constant-time function of modred on secrets marked undefined for valgrind
//! memcheck. Under `valgrind --error-exitcode=1` any secret-dependent branch, conditional
//! move or memory index is reported ("Conditional jump or move depends on uninitialised
//! value(s)", "Use of uninitialised value of size 8") and fails the run.
//!
//! `ct-check` checks the constant-time functions; `ct-check --leaky` runs the planted
//! leaks instead, which must be reported (`run.sh` expects both outcomes). `--widths
//! 16,24,32` checks at those widths (64-bit digits) instead of the default ones.

use ct_check::{mark_public, planted_leaks, targets, Context, Secrets, SplitMix64};

/// Widths in 64-bit digits: one digit, 128 (the two-digit quotient of the constant-time
/// exponentiation on arrays), 256, 448 (arrays too), 576 (the nine-digit register forms),
/// 640, 832, 1280 and 1728 (the written-out rows), 1024 and 2048 bits, and an odd width.
const WIDTHS: [usize; 11] = [1, 2, 4, 7, 9, 10, 13, 16, 20, 27, 32];

/// Whether `MontgomeryCt::pow` runs on AVX-512 IFMA here, for a 2048-bit modulus: never
/// under valgrind (it cannot execute AVX-512 and shows a CPU without it), so there the
/// digit-level path is the one checked, and the radix-2^52 one through its portable twin.
fn ifma_note() {
    let ctx = Context::new(32, &mut SplitMix64::new(1));
    let on = ctx.ct.pow_uses_ifma();
    let here = if on { "yes" } else { "no" };
    println!("MontgomeryCt::pow on AVX-512 IFMA here (2048 bits): {here}");
    // Under valgrind ADX is hidden: where the CPU has AVX2, the radix-2^28 path is the one
    // checked at 1024 and 2048 bits.
    let avx2 = if ctx.ct.pow_uses_avx2() { "yes" } else { "no" };
    println!("MontgomeryCt::pow in radix 2^28 on AVX2 here (2048 bits): {avx2}");
    if on && ct_check::running_on_valgrind() {
        eprintln!("error: the IFMA path was chosen under valgrind, which cannot run it");
        std::process::exit(1);
    }
}

/// The widths of `--widths a,b,…`, or [`WIDTHS`]; an error message for anything else.
fn widths() -> Result<Vec<usize>, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(i) = args.iter().position(|a| a == "--widths") else {
        return Ok(WIDTHS.to_vec());
    };
    let list = args.get(i + 1).ok_or("--widths needs a list, e.g. --widths 16,24,32")?;
    list.split(',')
        .map(|w| match w.trim().parse::<usize>() {
            Ok(k) if (1..=512).contains(&k) => Ok(k),
            _ => Err(format!("--widths: {w:?} is not a width of 1 to 512 digits")),
        })
        .collect()
}

fn main() {
    let leaky = std::env::args().any(|a| a == "--leaky");
    let widths = widths().unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2);
    });
    if ct_check::running_on_valgrind() && !ct_check::have_memcheck_header() {
        eprintln!("error: built without valgrind/memcheck.h: the secrets cannot be marked");
        std::process::exit(1);
    }
    if !ct_check::running_on_valgrind() {
        eprintln!("note: not under valgrind; run `crates/ct-check/run.sh` for the check");
    }
    let list = if leaky { planted_leaks() } else { targets() };
    if !leaky {
        ifma_note();
    }
    let mut rng = SplitMix64::new(0xc0ffee);
    for &k in &widths {
        let ctx = Context::new(k, &mut rng);
        for target in list.iter().filter(|t| ct_check::applies(t, k)) {
            let mut s = Secrets::random(&ctx, &mut rng);
            s.mark_secret();
            let before = ct_check::error_count();
            (target.run)(&ctx, &mut s);
            // The output is the function's result: public from here on.
            mark_public(&s.out);
            let reports = ct_check::error_count() - before;
            println!("{:>3} digits  {:<48} {}", k, target.name, verdict(reports));
        }
    }
    if !leaky {
        // The constant-time methods of `Modulus`: residues made first (public work), then
        // their digits and the exponent's marked secret.
        for &k in &widths {
            let ctx = Context::new(k, &mut rng);
            let md = modred::Modulus::new(&ctx.m).expect("odd modulus");
            for (name, op) in ct_check::modulus_targets() {
                let s = Secrets::random(&ctx, &mut rng);
                let residue = |v: &[u64]| md.residue(&modred::Nat::from_limbs(v));
                let (a, b, e) = (residue(&s.a), residue(&s.b), modred::Nat::from_limbs(&s.e));
                ct_check::mark_secret(a.limbs());
                ct_check::mark_secret(b.limbs());
                ct_check::mark_secret(e.limbs());
                let before = ct_check::error_count();
                let r = op(&md, &a, &b, &e);
                mark_public(r.limbs());
                let reports = ct_check::error_count() - before;
                println!("{:>3} digits  {:<48} {}", k, name, verdict(reports));
            }
        }
    }
    let fields = if leaky { ct_check::field_planted_leaks() } else { ct_check::field_targets() };
    for target in fields {
        let reports = (target.run)(&mut rng);
        println!("{:>3} digits  {:<48} {}", "-", target.name, verdict(reports));
    }
    // Correctness of what was checked: pow_ct against the variable-time exponentiation.
    let ctx = Context::new(4, &mut rng);
    let s = Secrets::random(&ctx, &mut rng);
    let mut out = vec![0; 4];
    ctx.ct.pow(&mut out, &s.a, &s.e);
    let e = modred::Nat::from_limbs(&s.e);
    let want = modred::exp::pow_vartime(&ctx.vartime, &s.a, &e, modred::exp::Method::Binary)
        .expect("valid method");
    assert_eq!(out, want, "constant-time and variable-time exponentiation disagree");
    // And the radix-2^52 twin at 1024 bits against the digit-level path.
    let ctx = Context::new(16, &mut rng);
    let s = Secrets::random(&ctx, &mut rng);
    let (mut twin, mut word) = (vec![0; 16], vec![0; 16]);
    if ctx.ct.pow_radix52_portable(&mut twin, &s.a, &s.e) {
        ctx.ct.pow_word(&mut word, &s.a, &s.e);
        assert_eq!(twin, word, "the radix-2^52 and digit-level exponentiations disagree");
    }
}

fn verdict(reports: u64) -> String {
    if reports == 0 {
        "no report".to_string()
    } else {
        format!("{reports} report(s): secret-dependent branch or index")
    }
}
