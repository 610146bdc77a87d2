//! This crate's own `stalemate` command: the catalogue plus its model.
//! `cargo run -p downstream -- run examples/downstream/scenarios`.

fn main() -> std::process::ExitCode {
    stalemate::cli::main(&[&downstream::MODEL])
}
