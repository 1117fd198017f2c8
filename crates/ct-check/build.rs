//! Compiles the valgrind client-request shim (memcheck.h is a header of macros, so the
//! requests need a C compiler; outside valgrind they are a few no-op instructions).

fn main() {
    println!("cargo:rerun-if-changed=csrc/memcheck_shim.c");
    cc::Build::new().file("csrc/memcheck_shim.c").compile("memcheck_shim");
}
