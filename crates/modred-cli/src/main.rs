//! `modred`: the command line of the modred library (the code lives in the crate's library
//! part, `lib.rs`).

/// An allocation the system refuses is one `error: ` line and exit status 3, not Rust's
/// default message and abort.
#[global_allocator]
static ALLOCATOR: modred_cli::OneLineOnFailure = modred_cli::OneLineOnFailure;

fn main() {
    std::process::exit(modred_cli::main_with_args(std::env::args_os().skip(1).collect()));
}
