//! The error every public function that can fail returns (scenario files have their own,
//! richer [`crate::scenario::ScenarioError`], with the file, line and column).

use std::fmt;

/// What went wrong, by kind; `Display` gives the one line the CLI prints after `error:`.
///
/// ```
/// let e = stalemate::schedule::Token::decode("zz").unwrap_err();
/// assert!(matches!(e, stalemate::Error::Token(_)));
/// assert!(e.to_string().starts_with("schedule `zz` is not of the form"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A replay token or seed that does not parse, or does not fit the scenario.
    Token(String),
    /// A path that does not exist or cannot be read.
    Path(String),
    /// A second model of a name already taken (`models::register`).
    DuplicateModel(String),
    /// An engine stopped on a failure of its own, not the model's (a crash of the harness).
    Engine(String),
    /// A scenario's check failed (`testing::check_scenario`): the wrong result, a report
    /// without its replay command, a replay that differs.
    Check(String),
}

impl Error {
    /// The message, without the kind.
    pub fn message(&self) -> &str {
        match self {
            Error::Token(m)
            | Error::Path(m)
            | Error::DuplicateModel(m)
            | Error::Engine(m)
            | Error::Check(m) => m,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Error {}
