//! Compiles the valgrind client-request shim (memcheck.h is a header of macros, so the
//! requests need a C compiler; outside valgrind they are a few no-op instructions).

fn main() {
    println!("cargo:rerun-if-changed=csrc/memcheck_shim.c");
    // Rebuild once valgrind's header appears (the shim falls back to no-ops without it).
    println!("cargo:rerun-if-changed=/usr/include/valgrind/memcheck.h");
    cc::Build::new().file("csrc/memcheck_shim.c").compile("memcheck_shim");
}
