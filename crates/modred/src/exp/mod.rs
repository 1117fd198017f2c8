//! Layer 6: exponentiation strategies generic over any [`crate::Reducer`].
