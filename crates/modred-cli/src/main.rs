//! `modred`: the command line of the modred library (the code lives in the crate's library
//! part, `lib.rs`).

fn main() {
    std::process::exit(modred_cli::main_with_args(std::env::args_os().skip(1).collect()));
}
