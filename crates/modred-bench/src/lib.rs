//! Benchmarks for `modred`, and the GMP / OpenSSL "speed anchors" they are
//! measured against.
//!
//! The crate is not published. Its library part hosts the anchors and the [`support`]
//! the benchmarks share (fixed-seed operands, interleaved timing); the criterion
//! benchmarks live in `benches/`.
//!
//! # The `anchors` feature
//!
//! With `--features anchors` the `anchors` module provides thin wrappers
//! that time one operation of a reference implementation on operands prepared
//! beforehand: GMP's `mpz_mul`+`mpz_tdiv_r`, `mpn_mul_n`, `mpz_powm`,
//! `mpz_powm_sec` (through `rug` / `gmp-mpfr-sys`, which build a bundled GMP),
//! and OpenSSL's `BN_mod_mul_montgomery`, `BN_mod_exp_mont_consttime` and
//! `BN_mul`+`BN_nist_mod_256` (system libcrypto).
//!
//! The feature is off by default because it needs system tools and headers:
//!
//! ```text
//! apt-get install -y m4 libssl-dev pkg-config
//! cargo test  -p modred-bench --features anchors
//! cargo bench -p modred-bench --features anchors
//! ```
//!
//! `m4` is required by the bundled GMP build (which takes a few minutes the
//! first time); `libssl-dev` and `pkg-config` let `openssl-sys` find
//! libcrypto (alternatively set `OPENSSL_DIR`).

#![deny(clippy::undocumented_unsafe_blocks)]

#[cfg(feature = "anchors")]
pub mod anchors;
pub mod support;
