//! This crate's own `stalemate` command: the catalogue plus its model.
//! From this folder: `cargo run -- run scenarios`.

fn main() -> std::process::ExitCode {
    stalemate::cli::main(&[&downstream::MODEL])
}
