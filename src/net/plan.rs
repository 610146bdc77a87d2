//! Fault plans and simulation settings: what a turmoil run does to the network, and when.

use std::fmt;
use std::time::Duration;

/// One of turmoil's own faults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FaultKind {
    /// Stop a host's software (the cluster is paused): `Sim::crash`.
    Crash,
    /// Restart a host's software: `Sim::bounce`. A crashed host comes back.
    Bounce,
    /// Drop every message between two hosts: `Sim::partition`.
    Partition,
    /// Undo a partition: `Sim::repair`.
    Repair,
    /// Hold messages between two hosts: `Sim::hold`.
    Hold,
    /// Deliver what was held: `Sim::release`.
    Release,
    /// Make a link drop messages: in this many ticks per thousand it fails, as turmoil's
    /// `Sim::set_link_fail_rate` does (0 makes it whole again).
    Loss(u16),
}

impl FaultKind {
    /// The kinds without a parameter (`Loss` takes a rate).
    pub const ALL: [FaultKind; 6] = [
        FaultKind::Crash,
        FaultKind::Bounce,
        FaultKind::Partition,
        FaultKind::Repair,
        FaultKind::Hold,
        FaultKind::Release,
    ];

    pub fn key(self) -> &'static str {
        match self {
            FaultKind::Crash => "crash",
            FaultKind::Bounce => "bounce",
            FaultKind::Partition => "partition",
            FaultKind::Repair => "repair",
            FaultKind::Hold => "hold",
            FaultKind::Release => "release",
            FaultKind::Loss(_) => "loss",
        }
    }

    /// Every kind's name, for `list` and error messages.
    pub fn keys() -> Vec<&'static str> {
        let mut v: Vec<&str> = FaultKind::ALL.iter().map(|k| k.key()).collect();
        v.push("loss");
        v
    }

    pub fn from_key(s: &str) -> Option<FaultKind> {
        FaultKind::ALL.into_iter().find(|k| k.key() == s)
    }

    /// Crash and bounce act on one host; the others on a link between two.
    pub fn on_link(self) -> bool {
        !matches!(self, FaultKind::Crash | FaultKind::Bounce)
    }
}

/// A fault at a simulated time: on `a` alone, or on the link `a`–`b`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub at: Duration,
    pub kind: FaultKind,
    pub a: String,
    pub b: Option<String>,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", secs(self.at), self.kind.key(), self.a)?;
        if let Some(b) = &self.b {
            write!(f, " {b}")?;
        }
        if let FaultKind::Loss(p) = self.kind {
            write!(f, " {}.{}%", p / 10, p % 10)?;
        }
        Ok(())
    }
}

/// Faults in time order (stable for equal times: the order given).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FaultPlan(pub Vec<Fault>);

impl FaultPlan {
    pub fn new(mut faults: Vec<Fault>) -> FaultPlan {
        faults.sort_by_key(|f| f.at);
        FaultPlan(faults)
    }

    /// `0.000s crash apiserver-a; 2.500s partition gateway apiserver-b`, or `none`.
    pub fn describe(&self) -> String {
        if self.0.is_empty() {
            return "none".into();
        }
        let v: Vec<String> = self.0.iter().map(|f| f.to_string()).collect();
        v.join("; ")
    }

    /// A plan drawn from a seed: one to three faults on `hosts` (crash, bounce) and on
    /// the links `links`, each at 0 s (half of them: before the first request) or on a
    /// 100 ms boundary within `window`.
    pub fn draw(seed: u64, hosts: &[&str], links: &[(&str, &str)], window: Duration) -> FaultPlan {
        let mut r = SplitMix(seed ^ 0x5eed_fa17);
        let n = 1 + r.below(3);
        let slots = (window.as_millis() as u64 / 100).max(1);
        let mut v = Vec::new();
        for _ in 0..n {
            let kind = FaultKind::ALL[r.below(6) as usize];
            let at = if r.below(2) == 0 {
                Duration::ZERO
            } else {
                Duration::from_millis(100 * r.below(slots))
            };
            let (a, b) = if kind.on_link() && !links.is_empty() {
                let (a, b) = links[r.below(links.len() as u64) as usize];
                (a.to_string(), Some(b.to_string()))
            } else if !hosts.is_empty() {
                (
                    hosts[r.below(hosts.len() as u64) as usize].to_string(),
                    None,
                )
            } else {
                continue;
            };
            let kind = match (kind.on_link(), b.is_some()) {
                (true, false) => FaultKind::Crash,
                _ => kind,
            };
            v.push(Fault { at, kind, a, b });
        }
        FaultPlan::new(v)
    }
}

/// Where a turmoil engine's fault plan comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Faults {
    /// The scenario's `[[fault]]` list, the same for every seed.
    Given(FaultPlan),
    /// Drawn from each seed (`FaultPlan::draw`).
    Drawn,
}

/// One turmoil engine's settings, as the scenario gives them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The first seed; the engine runs `iterations` seeds from here.
    pub seed: u64,
    /// Simulated time at most per seed.
    pub duration: Duration,
    /// turmoil's tick: how far simulated time moves per step.
    pub tick: Duration,
    pub min_latency: Duration,
    pub max_latency: Duration,
    pub faults: Faults,
}

impl Settings {
    pub fn describe(&self) -> String {
        let plan = match &self.faults {
            Faults::Given(p) => format!("faults: {}", p.describe()),
            Faults::Drawn => "faults drawn from each seed".into(),
        };
        format!(
            "turmoil (first seed {}, duration {}, tick {}, latency {}..{}, {plan})",
            self.seed,
            secs(self.duration),
            secs(self.tick),
            secs(self.min_latency),
            secs(self.max_latency)
        )
    }

    /// The plan of one seed; a drawn one lands within `window` (and the duration).
    pub fn plan(
        &self,
        seed: u64,
        hosts: &[&str],
        links: &[(&str, &str)],
        window: Duration,
    ) -> FaultPlan {
        match &self.faults {
            Faults::Given(p) => p.clone(),
            Faults::Drawn => FaultPlan::draw(seed, hosts, links, window.min(self.duration)),
        }
    }
}

/// Simulated time as reports print it: `1.250s`.
pub fn secs(d: Duration) -> String {
    format!("{}.{:03}s", d.as_secs(), d.subsec_millis())
}

/// `250ms`, `1.5s`, `30s`, `2m`: the duration syntax of scenario files.
pub fn parse_duration(s: &str) -> Option<Duration> {
    let s = s.trim();
    let (num, unit) = match s.find(|c: char| !(c.is_ascii_digit() || c == '.')) {
        Some(i) => s.split_at(i),
        None => return None,
    };
    let ms_per = match unit {
        "ms" => 1.0,
        "s" => 1000.0,
        "m" => 60_000.0,
        _ => return None,
    };
    if num.is_empty() || num.matches('.').count() > 1 || num.ends_with('.') {
        return None;
    }
    let x: f64 = num.parse().ok()?;
    let ms = x * ms_per;
    (ms.fract() == 0.0 && ms <= 86_400_000.0).then(|| Duration::from_millis(ms as u64))
}

/// A small deterministic generator (SplitMix64): fault plans and reflector jitter.
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_in_ms_s_and_m_and_reject_the_rest() {
        assert_eq!(parse_duration("250ms"), Some(Duration::from_millis(250)));
        assert_eq!(parse_duration("1.5s"), Some(Duration::from_millis(1500)));
        assert_eq!(parse_duration("2m"), Some(Duration::from_secs(120)));
        for bad in [
            "", "5", "s", "1.s", "1..5s", "0.0005s", "5 h", "-1s", "5sec",
        ] {
            assert_eq!(parse_duration(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_drawn_plan_is_a_function_of_its_seed() {
        let d = Duration::from_secs(2);
        let links = [("gateway", "apiserver-a")];
        let p = |s| FaultPlan::draw(s, &["apiserver-a"], &links, d);
        assert_eq!(p(7), p(7));
        assert!((0..50).any(|s| p(s) != p(7)));
        assert!((0..50).all(|s| (1..=3).contains(&p(s).0.len())));
        assert!((0..50).all(|s| p(s).0.iter().all(|f| f.at < d)));
        assert!((0..50).any(|s| p(s).0.iter().any(|f| f.at.is_zero())));
    }
}
