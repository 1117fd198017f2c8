//! # modred
//!
//! Multi-precision modular arithmetic — reduction, multiplication and exponentiation —
//! with every algorithm of the papers it follows behind one interface.
//!
//! The layers, each depending only on those before it:
//! 1. [`limb`]: the digit type, generic from `u8` to `u64`, and an op-counting digit;
//! 2. `kernels`: slice kernels (private);
//! 3. [`nat`]: natural numbers;
//! 4. [`ntt`]: exact transform multiplication (linear and cyclic convolutions);
//! 5. [`reduce`]: the reduction algorithms behind [`Reducer`];
//! 6. [`exp`]: exponentiation over any reducer;
//! 7. [`modulus`]: the user-facing [`Modulus`], which picks a reducer.

#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

mod algorithm;
mod error;
mod kernels;
pub mod limb;
pub mod nat;
pub mod ntt;
pub mod opcount;
pub mod reduce;
mod rng;

pub use algorithm::Algorithm;
pub use error::Error;
pub use limb::{Counted, Limb};
pub use nat::Nat;
pub use reduce::{Bound, Reducer, Scratch};
pub mod exp;
pub mod modulus;

pub use modulus::{Modulus, Operation, Residue};
