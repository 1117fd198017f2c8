//! The figures paper 000 published in 1993 (Bosselaers, Govaerts, Vandewalle, "Comparison
//! of three modular reduction functions", Crypto '93): b = 2^16, 33 MHz 80386, WATCOM
//! C/386 9.0.

/// Table 1's single-precision multiplications for reducing a 2k-digit argument, and for
/// the k×k product (the reference), as functions of k.
pub fn table1_muls(k: f64) -> [f64; 4] {
    [k * (k + 2.5), k * (k + 4.0), k * (k + 1.0), k * k]
}

/// Table 1's single-precision divisions: k for the classical algorithm, none otherwise.
pub fn table1_divs(k: f64) -> [f64; 4] {
    [k, 0.0, 0.0, 0.0]
}

/// Table 2: modulus bits and the milliseconds for classical, Barrett and Montgomery
/// reduction of a 2k-digit argument and for a k×k multiplication.
pub const TABLE2_MS: [(u32, [f64; 4]); 5] = [
    (128, [0.278, 0.312, 0.205, 0.182]),
    (256, [0.870, 0.871, 0.668, 0.632]),
    (512, [3.05, 2.84, 2.43, 2.36]),
    (768, [6.56, 5.96, 5.33, 5.19]),
    (1024, [11.39, 10.23, 9.33, 9.12]),
];

/// Table 2's times relative to the multiplication (classical, Barrett, Montgomery), for
/// a modulus of `bits` bits, if the paper has that size.
pub fn table2_ratios(bits: u32) -> Option<[f64; 3]> {
    TABLE2_MS.iter().find(|(b, _)| *b == bits).map(|(_, t)| [t[0] / t[3], t[1] / t[3], t[2] / t[3]])
}

/// Table 2's milliseconds for one reducer (0 classical, 1 Barrett, 2 Montgomery) at a
/// modulus of `bits` bits.
pub fn table2_ms(bits: u32, which: usize) -> Option<f64> {
    TABLE2_MS.iter().find(|(b, _)| *b == bits).map(|(_, t)| t[which])
}

/// Table 3: modulus bits and seconds for a full-length exponentiation (base, exponent and
/// modulus of that length, 16-ary method) with classical, Barrett and Montgomery
/// reduction.
pub const TABLE3_S: [(u32, [f64; 3]); 5] = [
    (128, [0.072, 0.078, 0.062]),
    (256, [0.430, 0.430, 0.366]),
    (512, [2.95, 2.83, 2.55]),
    (768, [9.46, 8.90, 8.28]),
    (1024, [21.74, 20.30, 19.14]),
];

/// Table 3's times relative to Montgomery (classical, Barrett), if the paper has the size.
pub fn table3_ratios(bits: u32) -> Option<[f64; 2]> {
    TABLE3_S.iter().find(|(b, _)| *b == bits).map(|(_, t)| [t[0] / t[2], t[1] / t[2]])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_from_the_published_times() {
        let r = table2_ratios(1024).unwrap();
        assert!((r[0] - 11.39 / 9.12).abs() < 1e-12 && (r[2] - 9.33 / 9.12).abs() < 1e-12);
        assert!(table2_ratios(2048).is_none());
        let r = table3_ratios(128).unwrap();
        assert!((r[0] - 0.072 / 0.062).abs() < 1e-12);
        assert_eq!(table1_muls(8.0), [84.0, 96.0, 72.0, 64.0]);
    }
}
