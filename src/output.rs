//! Output for machines: one JSON object per scenario × engine (JSON Lines), and JUnit
//! XML with one test case per scenario × engine, the report as the failure text.

use crate::Stop;
use crate::runner::{EngineRun, Verdict};
use crate::scenario::Scenario;
use serde::Serialize;
use std::fmt::Write;

/// One scenario × engine run, with stable field names (documented in the README).
#[derive(Serialize)]
pub struct RunRecord<'a> {
    pub scenario: &'a str,
    pub file: &'a str,
    pub model: &'a str,
    pub variant: &'a str,
    /// Numbered from 1, as in replay tokens.
    pub engine_no: usize,
    pub engine: &'static str,
    /// Every setting of the engine, as reports print it.
    pub settings: String,
    pub expected: String,
    pub found: String,
    /// ok | unexpected | notfound | crash
    pub verdict: String,
    pub executions: u64,
    /// Of the executions, those cut at the step bound (a search with any is no proof).
    pub cut: u64,
    /// exhausted | found | iterations | time
    pub stop: &'static str,
    /// What was explored, in words (`... proven for these parameters`).
    pub coverage: String,
    /// Wall-clock seconds: the one field that differs between two identical runs.
    pub time_secs: f64,
    /// The replay command and its token (schedule or seed), if something was found.
    pub replay: Option<String>,
    pub token: Option<String>,
    pub report: Option<&'a str>,
    pub error: Option<&'a str>,
    /// With `[checks] all`: each further kind of violation reached, as `found`,
    /// `replay`, `token` and `report` give the first.
    pub also: Vec<AlsoRecord<'a>>,
}

/// A further finding of a run with `[checks] all`.
#[derive(Serialize)]
pub struct AlsoRecord<'a> {
    pub found: String,
    pub replay: &'a str,
    pub token: &'a str,
    pub report: &'a str,
}

fn stop_key(s: &Stop) -> &'static str {
    match s {
        Stop::Exhausted => "exhausted",
        Stop::Found => "found",
        Stop::Iterations => "iterations",
        Stop::Time => "time",
    }
}

pub fn verdict_key(v: Verdict) -> String {
    format!("{v:?}").to_lowercase()
}

pub fn record<'a>(s: &'a Scenario, engine_no: usize, r: &'a EngineRun) -> RunRecord<'a> {
    RunRecord {
        scenario: &s.name,
        file: &s.path,
        model: s.model.name,
        variant: &s.variant,
        engine_no,
        engine: r.engine.kind_name(),
        settings: r.engine.describe(),
        expected: s.expect.to_string(),
        found: r.found_key(),
        verdict: verdict_key(r.verdict),
        executions: r.explored.executions,
        cut: r.explored.cut,
        stop: stop_key(&r.explored.stop),
        coverage: r.coverage(),
        time_secs: (r.elapsed.as_secs_f64() * 1000.0).round() / 1000.0,
        replay: r.found.as_ref().map(|f| f.replay.clone()),
        token: r.found.as_ref().map(|f| f.token.clone()),
        report: r.found.as_ref().map(|f| f.report.as_str()),
        error: r.error.as_ref().map(crate::Error::message),
        also: r
            .also
            .iter()
            .map(|f| AlsoRecord {
                found: f.property.key(),
                replay: &f.replay,
                token: &f.token,
                report: &f.report,
            })
            .collect(),
    }
}

/// One line of JSON.
pub fn json_line(s: &Scenario, engine_no: usize, r: &EngineRun) -> String {
    serde_json::to_string(&record(s, engine_no, r)).expect("a run record serialises")
}

fn xml(text: &str) -> String {
    let mut o = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            // XML 1.0 allows no other control characters.
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\r' | '\t') => {}
            c => o.push(c),
        }
    }
    o
}

/// JUnit XML: one test suite, one test case per scenario × engine (`{scenario}` as the
/// class, `engine {n}: {kind}` as the name). A run whose verdict is not ok is a
/// failure (an engine error is an error), its text the report or the error.
pub fn junit(runs: &[(&Scenario, usize, &EngineRun)]) -> String {
    let failures = runs
        .iter()
        .filter(|(_, _, r)| !matches!(r.verdict, Verdict::Ok | Verdict::Crash))
        .count();
    let errors = runs
        .iter()
        .filter(|(_, _, r)| r.verdict == Verdict::Crash)
        .count();
    let total: f64 = runs.iter().map(|(_, _, r)| r.elapsed.as_secs_f64()).sum();
    let mut o = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        o,
        "<testsuites name=\"stalemate\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{total:.3}\">",
        runs.len()
    );
    let _ = writeln!(
        o,
        "  <testsuite name=\"stalemate\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{total:.3}\">",
        runs.len()
    );
    for (s, n, r) in runs {
        let _ = write!(
            o,
            "    <testcase classname=\"{}\" name=\"engine {n}: {}\" file=\"{}\" time=\"{:.3}\"",
            xml(&s.name),
            xml(r.engine.kind_name()),
            xml(&s.path),
            r.elapsed.as_secs_f64()
        );
        let message = format!(
            "expected {}, found {} ({})",
            s.expect,
            r.found_key(),
            r.coverage()
        );
        let body = match (&r.found, &r.error) {
            (_, Some(e)) => e.to_string(),
            (Some(f), None) => std::iter::once(f)
                .chain(&r.also)
                .map(|f| f.report.as_str())
                .collect::<Vec<_>>()
                .join("\n\n"),
            (None, None) => String::new(),
        };
        match r.verdict {
            Verdict::Ok => {
                let _ = writeln!(o, ">");
                let _ = writeln!(o, "      <system-out>{}</system-out>", xml(&message));
            }
            Verdict::Crash => {
                let _ = writeln!(o, ">");
                let _ = writeln!(
                    o,
                    "      <error message=\"{}\" type=\"crash\">{}</error>",
                    xml(&message),
                    xml(&body)
                );
            }
            v => {
                let _ = writeln!(o, ">");
                let _ = writeln!(
                    o,
                    "      <failure message=\"{}\" type=\"{}\">{}</failure>",
                    xml(&message),
                    verdict_key(v),
                    xml(&body)
                );
            }
        }
        let _ = writeln!(o, "    </testcase>");
    }
    let _ = writeln!(o, "  </testsuite>");
    let _ = writeln!(o, "</testsuites>");
    o
}

#[cfg(test)]
mod tests {
    use super::xml;

    #[test]
    fn xml_text_is_escaped_and_stripped_of_control_characters() {
        assert_eq!(
            xml("a<b & \"c\" 'd'>\u{1b}[0m\n"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;[0m\n"
        );
    }
}
