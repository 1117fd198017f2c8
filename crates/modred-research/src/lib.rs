//! What the reproduction of modred's papers needs beyond the arithmetic, for the report and
//! the `modred` command line (not published; the library's users do not need it):
//!
//! - [`opcount`]: how many single-precision multiplications, divisions and additions an
//!   algorithm performs, measured by running the library's real code on its counting digit
//!   ([`modred::Counted`], [`modred::limb::count_ops`]): paper 000, Table 1, and paper 002's
//!   counts (`modred opcount`);
//! - [`radix2_model`]: the cycle-level model of paper 004's two carry-save radix-2
//!   Montgomery datapaths (`modred radix2-model`, `modred radix2-vectors`, the Verilog in
//!   `hw/`); the radix-2 reducers themselves are in `modred::reduce`;
//! - [`primes`]: Miller–Rabin and the special-prime searches of paper 003, Table 1
//!   (`modred special-primes`); the generalized Mersenne (Solinas) polynomials and weights
//!   of Table 2 stay with their reducer, in `modred::reduce::SolinasPoly`.

#![deny(clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

pub mod opcount;
pub mod primes;
pub mod radix2_model;
