//! Arbitrary text as a number: parsing never panics, and what parses formats back to a
//! number that parses to the same value (decimal and hex), agreeing with num-bigint.
#![no_main]

use libfuzzer_sys::fuzz_target;
use modred::Nat;
use num_bigint::BigUint;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for radix in [10, 16, 36, 0, 1000] {
        let _ = Nat::<u64>::from_str_radix(text, radix);
    }
    let Ok(n) = text.parse::<Nat<u64>>() else { return };
    let decimal = n.to_decimal();
    assert_eq!(decimal.parse::<Nat<u64>>().unwrap(), n);
    assert_eq!(format!("0x{}", n.to_hex()).parse::<Nat<u64>>().unwrap(), n);
    let digits = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X"));
    let oracle = match digits {
        Some(hex) => BigUint::parse_bytes(hex.as_bytes(), 16),
        None => BigUint::parse_bytes(text.as_bytes(), 10),
    };
    if let Some(oracle) = oracle {
        assert_eq!(oracle.to_string(), decimal);
    }
    let n8: Nat<u8> = text.parse().unwrap();
    assert_eq!(n8.to_decimal(), decimal);
});
