//! Replay tokens: `<engine>-<execution>-<steps>-<check>`.
//!
//! - engine: which `[[engine]]` of the scenario found it (from 1), so the replayed
//!   report names the same engine and settings;
//! - execution: which execution of that engine (for the report header);
//! - steps: the goroutine of every step, run-length encoded (`0x3.1.2x4`); a select
//!   that chose among several ready cases adds the case, from 1 (`2c2`: goroutine 2
//!   took its second case);
//! - check: 8 hex digits over the trace, so a replay knows when the model changed.
//!
//! Only `[0-9a-fx.-]`: safe to paste into any shell unquoted.

use crate::world::{Step, Turn};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub engine: usize,
    pub execution: u64,
    pub steps: Vec<Turn>,
    pub check: u32,
}

/// FNV-1a over each step's goroutine and text.
pub(crate) fn check(steps: &[Step]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for s in steps {
        for b in s
            .gid
            .to_le_bytes()
            .iter()
            .chain(s.text.as_bytes())
            .chain(s.func.as_bytes())
        {
            h ^= u32::from(*b);
            h = h.wrapping_mul(0x0100_0193);
        }
    }
    h
}

impl Token {
    pub fn encode(&self) -> String {
        let mut runs: Vec<(Turn, usize)> = Vec::new();
        for &t in &self.steps {
            match runs.last_mut() {
                Some((x, n)) if *x == t => *n += 1,
                _ => runs.push((t, 1)),
            }
        }
        let body: Vec<String> = runs
            .iter()
            .map(|&(t, n)| {
                let mut r = t.gid.to_string();
                if let Some(c) = t.case {
                    r += &format!("c{}", c + 1);
                }
                if n > 1 {
                    r += &format!("x{n}");
                }
                r
            })
            .collect();
        format!(
            "{}-{}-{}-{:08x}",
            self.engine,
            self.execution,
            body.join("."),
            self.check
        )
    }

    /// Reads a token as a report prints it; a token that does not parse is an
    /// [`Error::Token`](crate::Error::Token) saying which part is wrong.
    ///
    /// ```
    /// use stalemate::schedule::Token;
    /// let t = Token::decode("1-7-0x3.1c2.0-0000beef").unwrap();
    /// assert_eq!((t.engine, t.execution, t.steps.len()), (1, 7, 5));
    /// assert_eq!(t.steps[3].case, Some(1)); // `1c2`: goroutine 1, the select's 2nd case
    /// assert_eq!(t.encode(), "1-7-0x3.1c2.0-0000beef");
    /// ```
    pub fn decode(s: &str) -> Result<Token, crate::Error> {
        Token::parse(s).map_err(crate::Error::Token)
    }

    fn parse(s: &str) -> Result<Token, String> {
        let parts: Vec<&str> = s.trim().split('-').collect();
        let [engine, execution, body, check] = parts.as_slice() else {
            return Err(format!(
                "schedule `{s}` is not of the form <engine>-<execution>-<steps>-<check> (copy it whole from the report)"
            ));
        };
        let num = |what: &str, v: &str| -> Result<u64, String> {
            v.parse::<u64>()
                .map_err(|_| format!("schedule `{s}`: {what} `{v}` is not a number"))
        };
        let engine = num("engine", engine)? as usize;
        if engine == 0 {
            return Err(format!("schedule `{s}`: engines are numbered from 1"));
        }
        let execution = num("execution", execution)?;
        let mut steps = Vec::new();
        for run in body.split('.') {
            let (turn, n) = match run.split_once('x') {
                Some((t, n)) => (t, num("count", n)?),
                None => (run, 1),
            };
            if n == 0 || n > 1_000_000 {
                return Err(format!("schedule `{s}`: run `{run}` has a bad count"));
            }
            let (g, case) = match turn.split_once('c') {
                Some((g, c)) => match num("case", c)? {
                    0 => return Err(format!("schedule `{s}`: cases are numbered from 1")),
                    c => (num("goroutine", g)?, Some(c as usize - 1)),
                },
                None => (num("goroutine", turn)?, None),
            };
            let t = Turn {
                gid: g as usize,
                case,
            };
            steps.extend(std::iter::repeat_n(t, n as usize));
        }
        let check = u32::from_str_radix(check, 16)
            .ok()
            .filter(|_| check.len() == 8)
            .ok_or_else(|| format!("schedule `{s}`: check `{check}` is not 8 hex digits"))?;
        Ok(Token {
            engine,
            execution,
            steps,
            check,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let turn = |gid, case| Turn { gid, case };
        let mut steps: Vec<Turn> = [0, 0, 0, 1, 2, 2, 0]
            .iter()
            .map(|&g| turn(g, None))
            .collect();
        steps.extend([turn(1, Some(1)), turn(1, Some(1)), turn(2, Some(0))]);
        let t = Token {
            engine: 2,
            execution: 417,
            steps,
            check: 0xdead_beef,
        };
        assert_eq!(t.encode(), "2-417-0x3.1.2x2.0.1c2x2.2c1-deadbeef");
        assert_eq!(Token::decode(&t.encode()).unwrap(), t);
    }

    #[test]
    fn bad_tokens_say_what_is_wrong() {
        assert!(
            Token::decode("zz")
                .unwrap_err()
                .message()
                .contains("is not of the form")
        );
        assert!(
            Token::decode("1-2-0xq-deadbeef")
                .unwrap_err()
                .message()
                .contains("count `q` is not a number")
        );
        assert!(
            Token::decode("1-2-0-dead")
                .unwrap_err()
                .message()
                .contains("not 8 hex digits")
        );
        assert!(
            Token::decode("1-2-0c0-deadbeef")
                .unwrap_err()
                .message()
                .contains("cases are numbered from 1")
        );
        assert!(
            Token::decode("0-2-0-deadbeef")
                .unwrap_err()
                .message()
                .contains("numbered from 1")
        );
    }
}
