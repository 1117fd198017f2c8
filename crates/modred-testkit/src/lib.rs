//! What modred's tests, benchmarks, examples, report and tools share, with no dependency
//! (in particular not on `modred`, so that modred's own tests can use it):
//!
//! - [`SplitMix64`] ([`rng`]): the one fixed-seed generator. Numbers come out as
//!   little-endian digits in radix 2^64 (`Vec<u64>`); callers make them `modred::Nat`s
//!   with `Nat::from_vec` (and `to_radix` for other digit sizes).
//! - [`timing`]: the one timing harness — candidates timed in interleaved rounds, the
//!   minimum and median per operation, ratios over the quiet rounds, and rounds pooled
//!   from several calls ([`timing::merge`]).
//! - [`primes`]: a prime of no special form for every size from 1 to 16 digits.
//! - [`alloc_count`]: a counting global allocator, for tests of working memory.
//!
//! Not for cryptography, and not part of modred's public interface.

#![deny(clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

pub mod alloc_count;
pub mod primes;
pub mod rng;
pub mod timing;

pub use rng::SplitMix64;
