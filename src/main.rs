//! The `stalemate` command (see `stalemate::cli`).

fn main() -> std::process::ExitCode {
    stalemate::cli::main(&[])
}
