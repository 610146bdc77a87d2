//! Violations and the report a person reads.
//!
//! Reports are pure functions of the scenario, the engine settings and the trace: no
//! times, no addresses, no hash-map order. The same schedule gives the same bytes.

pub use crate::verdict::{Property, Violation, WaitGraph};
use crate::world::Step;
use std::fmt::Write;

/// Everything a report says besides the violation and trace.
pub struct Header {
    pub scenario: String,
    pub path: String,
    pub model: String,
    pub variant: String,
    /// The engine with every setting, and the execution that failed.
    pub engine: String,
    /// Every parameter, defaults included, `name=value`.
    pub params: Vec<String>,
    pub bounds: String,
}

/// The lines every report starts with: what was found, the header (with the fault plan
/// of a network run), and the broken property.
fn head(o: &mut String, h: &Header, faults: Option<&str>, v: &Violation) {
    let _ = writeln!(o, "stalemate: {} found", v.property.key());
    let _ = writeln!(o, "scenario   {} ({})", h.scenario, h.path);
    let _ = writeln!(o, "model      {}, variant {}", h.model, h.variant);
    let _ = writeln!(o, "engine     {}", h.engine);
    if let Some(f) = faults {
        let _ = writeln!(o, "faults     {f}");
    }
    let params = if h.params.is_empty() {
        "none".into()
    } else {
        h.params.join(" ")
    };
    let _ = writeln!(o, "params     {params}");
    let _ = writeln!(o, "bounds     {}", h.bounds);
    let _ = writeln!(o);
    let _ = writeln!(
        o,
        "property   {}: {}",
        v.property.key(),
        v.property.meaning()
    );
    let _ = writeln!(o, "           {}", v.message);
}

/// A titled, indented section; nothing when there are no lines.
fn section(o: &mut String, title: &str, lines: &[String]) {
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(o);
    let _ = writeln!(o, "{title}");
    for l in lines {
        let _ = writeln!(o, "  {l}");
    }
}

/// The step lines, then the replay command as the report's last line.
fn tail(o: &mut String, steps: impl Iterator<Item = String>, replay: &str) {
    let _ = writeln!(o);
    let _ = writeln!(o, "steps");
    for (i, s) in steps.enumerate() {
        let line = format!("{:>5}  {s}", i + 1);
        let _ = writeln!(o, "{}", line.trim_end());
    }
    let _ = writeln!(o);
    let _ = writeln!(o, "replay");
    let _ = write!(o, "  {replay}");
}

/// Renders the report. Its last line is the command that replays it.
pub(crate) fn render(
    h: &Header,
    v: &Violation,
    steps: &[Step],
    names: &[String],
    replay: &str,
) -> String {
    let mut o = String::new();
    head(&mut o, h, None, v);
    section(&mut o, "wait-for cycle", &v.cycle);
    section(&mut o, "blocked goroutines", &v.blocked);
    let wn = steps.iter().map(|s| names[s.gid].len()).max().unwrap_or(0);
    let wf = steps.iter().map(|s| s.func.len()).max().unwrap_or(0);
    // Virtual time mode: each step's virtual time, as its own column.
    let at = |s: &Step| {
        s.at.map_or(String::new(), |t| {
            let t = if t.is_zero() {
                "0s".into()
            } else {
                format!("{t:?}")
            };
            format!("{t:>8}  ")
        })
    };
    let lines = steps.iter().map(|s| {
        format!(
            "{}{:<wn$}  {:<wf$}  {}",
            at(s),
            names[s.gid],
            s.func,
            s.text
        )
    });
    tail(&mut o, lines, replay);
    o
}

/// Renders a network report: the header with the seed's fault plan, the property,
/// the wait-for chain across locks and the network when it broke, the timeline with
/// simulated times, and last the replay command.
pub(crate) fn render_net(
    h: &Header,
    plan: &str,
    v: &Violation,
    at: std::time::Duration,
    chain: &[String],
    steps: &[crate::net::NetStep],
    replay: &str,
) -> String {
    let mut o = String::new();
    head(&mut o, h, Some(plan), v);
    let title = format!("wait-for chain at {}", crate::net::secs(at));
    section(&mut o, &title, chain);
    let wn = steps.iter().map(|s| s.who.len()).max().unwrap_or(0);
    let lines = steps
        .iter()
        .map(|s| format!("{:>8}  {:<wn$}  {}", crate::net::secs(s.at), s.who, s.text));
    tail(&mut o, lines, replay);
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Property;
    use std::time::Duration;

    #[test]
    fn virtual_time_is_a_column_of_the_steps() {
        let h = Header {
            scenario: "s".into(),
            path: "s.toml".into(),
            model: "m".into(),
            variant: "v".into(),
            engine: "e".into(),
            params: Vec::new(),
            bounds: "b".into(),
        };
        let v = Violation::new(Property::Deadlock, "stuck".into());
        let step = |gid, text: &str, at| Step {
            gid,
            case: None,
            func: "",
            text: text.into(),
            at,
        };
        let steps = [
            step(0, "sleep 1s: until 1s", Some(Duration::ZERO)),
            step(0, "sleep 1s: wakes", Some(Duration::from_secs(1))),
        ];
        let r = render(&h, &v, &steps, &["main".into()], "replay");
        assert!(
            r.contains("    1        0s  main    sleep 1s: until 1s"),
            "{r}"
        );
        assert!(
            r.contains("    2        1s  main    sleep 1s: wakes"),
            "{r}"
        );
        // Without virtual time there is no column.
        let plain = [step(0, "lock mu", None)];
        let r = render(&h, &v, &plain, &["main".into()], "replay");
        assert!(r.contains("    1  main    lock mu"), "{r}");
    }
}
