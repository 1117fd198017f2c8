//! Layer 7: the user-facing modulus context.
