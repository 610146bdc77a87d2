//! What the command-line tests share: running the binary from the crate's root.

use std::process::{Command, Output};

/// Runs `stalemate` with `args` in the crate's root.
pub fn stalemate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stalemate"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run stalemate")
}

/// stdout, then stderr.
#[allow(dead_code)] // each test crate compiles this module; not every one reads text
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}
