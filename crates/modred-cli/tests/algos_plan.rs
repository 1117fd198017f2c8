//! `modred algos M` names the code that runs: for every registry entry and each test width,
//! the line it prints for the algorithm is the plan of the engine `Modulus` builds, and its
//! `auto` lines are the plans of the automatic contexts.

use modred::registry::ALGORITHMS;
use modred::{Modulus, Nat, Operation};
use modred_cli::commands::algos::analysis;

#[test]
fn algos_names_the_engine_modulus_runs() {
    let mut moduli: Vec<Nat> = Vec::new();
    for bits in [64u64, 128, 256, 512, 1024, 2048] {
        let top = Nat::power_of_two(bits - 1);
        moduli.push(&top + &Nat::from(0x1234_5678_9abc_def1u64)); // odd
        moduli.push(&top + &Nat::from(0x1234_5678_9abc_def0u64)); // even
    }
    moduli.push(&Nat::power_of_two(255) - &Nat::from(19u64));
    moduli.push(modred::reduce::NistPrime::P384.modulus());
    for m in &moduli {
        let text = analysis(m).unwrap();
        for info in ALGORITHMS {
            let line = text
                .lines()
                .find(|l| l.trim_start().starts_with(&format!("{} ", info.name())))
                .unwrap_or_else(|| panic!("no line for {} in\n{text}", info.name()));
            match Modulus::with(info.algorithm, m) {
                Ok(md) => assert!(
                    line.ends_with(&format!("applies; runs {}", md.plan())),
                    "{}: algos says {line:?}, Modulus runs {}",
                    info.name(),
                    md.plan()
                ),
                Err(_) => assert!(line.contains("does not apply"), "{line}"),
            }
        }
        for op in [Operation::MulMod, Operation::PowMod] {
            let code = Modulus::for_operation(m, op).unwrap().plan().code();
            assert!(text.contains(&format!("runs: {code}")), "auto {op}: {code} not in\n{text}");
        }
        let md = Modulus::new(m).unwrap();
        let (a, p) = md.plan().reduce;
        assert!(text.contains(&format!("runs: {a}: {p}")), "reduce: not in\n{text}");
    }
}
