//! Go kernels: a scenario may name a small Go program (the concurrency skeleton of a
//! bug) instead of a catalogue model. The kernel is parsed by tree-sitter's Go grammar
//! (`parse`), checked against the subset, and interpreted (`interp`) on stalemate's own
//! primitives, so it becomes a [`Model`] like any other: every engine, the wait-for
//! graph, replay and the reports work on it unchanged.
// A map key that is a pointer or a channel (`value::Key::Ref`) holds the value, which
// has interior mutability, but orders by its sequence number alone.
#![allow(clippy::mutable_key_type)]

mod ast;
mod check;
mod done;
pub(crate) mod generic;
mod interp;
pub mod library;
mod parse;
mod reach;
mod value;

use crate::explore::ModelFn;
use crate::go::Go;
use crate::model::{Build, Model, Param, Params, Variant};
use ast::{E, Expr, File, Func, Pos, Type};
use interp::{I, Rt};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use value::{Callable, Env, Value};

/// A kernel that does not parse, leaves the subset, or names no entry.
#[derive(Debug, Clone)]
pub struct KernelError {
    pub path: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
    pub help: Option<String>,
}

impl KernelError {
    fn at(path: &str, p: Pos, message: impl Into<String>, help: Option<String>) -> KernelError {
        KernelError {
            path: path.to_string(),
            line: p.line,
            col: p.col,
            message: message.into(),
            help,
        }
    }
}

impl fmt::Display for KernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.path, self.line, self.col, self.message
        )
    }
}

/// A parsed and checked kernel.
pub struct Kernel {
    file: File,
    types: BTreeMap<String, Type>,
    funcs: BTreeMap<String, Arc<Func>>,
    methods: BTreeMap<(String, String), Arc<Func>>,
    /// Generic types' parameters, and the instances made of them and of generic
    /// functions.
    generics: BTreeMap<String, Vec<String>>,
    instances: generic::Instances,
    entry: Arc<Func>,
    /// The entry is `func TestX(t *testing.T)`.
    test: bool,
    /// Go before 1.22: a `for` loop's variables are one for all its iterations.
    shared_loop_vars: bool,
    /// It reads the clock (`time.Now`, `Since`, `Until`): in `any` time mode the
    /// world keeps one for it (`Go::use_clock`).
    reads_clock: bool,
    /// The `make(chan ...)` places whose channels are never sent on: made unbuffered,
    /// done channels (`kernel::done`).
    never_sent: std::collections::BTreeSet<(u32, u32)>,
}

/// The properties a kernel can break besides deadlock, leak and Go's faults.
pub const PROPERTIES: &[(&str, &str)] = &[
    (
        "panic",
        "the kernel panicked: panic(), or a runtime error such as a nil dereference",
    ),
    (
        "test-failed",
        "the kernel's test called t.Error, t.Errorf, t.Fatal or t.Fatalf",
    ),
    (
        "exit",
        "the kernel called log.Fatal, log.Fatalf or log.Fatalln: Go exits with status 1",
    ),
];

/// Parses and checks the kernel at `path` (shown as given) for entry `entry`; with
/// none, `main`, or else the first `TestX(t *testing.T)`.
///
/// ```
/// use stalemate::explore::{explore, Bounds, Engine};
/// let src = "package main
///
/// import \"sync\"
///
/// func main() {
/// \tvar mu sync.Mutex
/// \tmu.Lock()
/// \tmu.Lock() // buggy: Go's Mutex is not reentrant
/// }
/// ";
/// let model = stalemate::kernel::parse("twice.go", src, None).unwrap().into_model("twice");
/// let main = model.build("kernel", &model.params(&[]));
/// let o = explore(&Engine::Dpor, &Bounds::default(), main, None).unwrap();
/// assert_eq!(o.finding.unwrap().violation().property.key(), "deadlock");
///
/// // Outside the subset: refused before anything runs, with the place.
/// let Err(e) = stalemate::kernel::parse("jump.go", "package main\n\nfunc main() {\n\tgoto end\nend:\n}\n", None)
/// else {
///     panic!("goto is outside the subset")
/// };
/// assert_eq!((e.line, e.col), (4, 2));
/// ```
/// The minor version of a Go version as go.mod writes it (`1.21`, `1.21.3`, `1.21rc1`).
pub fn go_minor(v: &str) -> Option<u32> {
    let rest = v.strip_prefix("1.")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let tail = &rest[digits.len()..];
    let ok = tail.is_empty()
        || tail
            .strip_prefix('.')
            .is_some_and(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
        || tail.starts_with("rc")
        || tail.starts_with("beta");
    (ok && !digits.is_empty())
        .then(|| digits.parse().ok())
        .flatten()
}

/// The Go version of the module `kernel` is in: the `go` line of the first go.mod in
/// its directory or above it; `None` if there is none.
pub fn go_mod_minor(kernel: &std::path::Path) -> Option<u32> {
    let dir = std::fs::canonicalize(kernel).ok()?;
    for d in dir.ancestors().skip(1) {
        let Ok(text) = std::fs::read_to_string(d.join("go.mod")) else {
            continue;
        };
        return text
            .lines()
            .find_map(|l| l.trim().strip_prefix("go ").map(str::trim))
            .and_then(go_minor);
    }
    None
}

pub fn parse(path: &str, text: &str, entry: Option<&str>) -> Result<Kernel, KernelError> {
    let file = parse::parse(path, text)?;
    check::check(&file)?;
    let first_test = file
        .funcs
        .iter()
        .find(|f| is_test(f))
        .map(|f| f.name.clone());
    // Outside `package main`, `main` is an ordinary function: the entries are tests.
    let program = file.package == "main";
    let is_entry = |f: &Func| (program && f.name == "main") || is_test(f);
    let entry = match (entry, first_test) {
        (Some(e), _) => e.to_string(),
        (None, Some(t)) if !program || !file.funcs.iter().any(|f| f.name == "main") => t,
        (None, _) => "main".to_string(),
    };
    let entry = entry.as_str();
    let funcs: BTreeMap<String, Arc<Func>> = file
        .funcs
        .iter()
        .map(|f| (f.name.clone(), f.clone()))
        .collect();
    let entries: Vec<&str> = file
        .funcs
        .iter()
        .filter(|f| is_entry(f))
        .map(|f| f.name.as_str())
        .collect();
    let Some(e) = funcs.get(entry).filter(|f| is_entry(f)) else {
        let line = funcs.get(entry).map_or(Pos { line: 1, col: 1 }, |f| f.pos);
        let what = if program {
            "`func main()` or `func TestX(t *testing.T)`"
        } else {
            "`func TestX(t *testing.T)` (this is a test file: `package main` makes `main` one)"
        };
        return Err(KernelError::at(
            path,
            line,
            format!("no entry `{entry}`: an entry is {what}"),
            Some(format!("entries of this kernel: {}", entries.join(", "))),
        ));
    };
    let entry = e.clone();
    let mut k = Kernel {
        types: file
            .types
            .iter()
            .map(|(n, t, _)| (n.clone(), t.clone()))
            .collect(),
        methods: file
            .methods
            .iter()
            .map(|(t, m, f)| ((t.clone(), m.clone()), f.clone()))
            .collect(),
        test: entry.name != "main",
        shared_loop_vars: false,
        reads_clock: ["time.Now", "time.Since", "time.Until"]
            .iter()
            .any(|f| text.contains(f)),
        generics: file.generic_types.iter().cloned().collect(),
        instances: Default::default(),
        never_sent: done::never_sent(&file),
        entry,
        funcs,
        file,
    };
    k.instantiate_written();
    Ok(k)
}

fn is_test(f: &Func) -> bool {
    f.name.starts_with("Test")
        && f.recv.is_none()
        && f.params.len() == 1
        && f.params[0].1 == Type::Ptr(Box::new(Type::Pkg("testing".into(), "T".into())))
}

/// An integer constant: `const watchers = 2`.
fn int_const(e: &Expr) -> Option<i64> {
    match &e.kind {
        E::Int(i) => Some(*i),
        E::Unary("-", x) => int_const(x).map(|i| -i),
        _ => None,
    }
}

fn leak(s: &str) -> &'static str {
    interp::intern(s)
}

impl Kernel {
    /// Replaces each generic type written with its arguments outside generic code
    /// (`Pool[int]`) by its instance. Generic functions and methods stay as written:
    /// they are instantiated when called.
    fn instantiate_written(&mut self) {
        let none = generic::Bindings::new();
        let plain = |f: &Arc<Func>| f.tparams.is_empty();
        let mut types = BTreeMap::new();
        for (n, t) in &self.types {
            let t = if self.generics.contains_key(n) {
                t.clone()
            } else {
                self.ty(t, &none)
            };
            types.insert(n.clone(), t);
        }
        let re = |f: &Arc<Func>| {
            if plain(f) {
                Arc::new(self.func(f, &none))
            } else {
                f.clone()
            }
        };
        let funcs = self.funcs.iter().map(|(n, f)| (n.clone(), re(f))).collect();
        let methods = self
            .methods
            .iter()
            .map(|(n, f)| (n.clone(), re(f)))
            .collect();
        let entry = re(&self.entry);
        let vars = self
            .file
            .vars
            .iter()
            .map(|(ns, t, vs)| {
                let t = t.as_ref().map(|t| self.ty(t, &none));
                let vs = vs.iter().map(|v| self.expr(v, &none)).collect();
                (ns.clone(), t, vs)
            })
            .collect();
        self.types = types;
        self.funcs = funcs;
        self.methods = methods;
        self.entry = entry;
        self.file.vars = vars;
    }

    /// The file name reports cite.
    pub fn file_name(&self) -> &str {
        &self.file.short
    }

    /// The kernel as a model: its integer constants are its parameters.
    /// The Go version it is written for (its minor, `None`: 1.22 or later's rules).
    pub fn go_minor(&mut self, minor: Option<u32>) {
        self.shared_loop_vars = minor.is_some_and(|m| m < 22);
    }

    pub fn into_model(self, name: &str) -> &'static Model {
        let params: Vec<Param> = self
            .file
            .consts
            .iter()
            .filter(|(n, _)| !self.file.enums.contains(n))
            .filter_map(|(n, e)| {
                int_const(e).map(|v| Param {
                    name: leak(n),
                    default: v,
                    min: i64::MIN,
                    max: i64::MAX,
                    doc: "a top-level constant of the kernel",
                })
            })
            .collect();
        let summary = leak(&format!("Go kernel {}", self.file.path));
        let k: &'static Kernel = Box::leak(Box::new(self));
        Box::leak(Box::new(Model {
            name: leak(name),
            summary,
            origin: leak(&k.file.path),
            variants: &[Variant {
                name: "kernel",
                doc: "the kernel as written",
            }],
            params: Box::leak(params.into_boxed_slice()),
            properties: PROPERTIES,
            main: Build::Kernel(Box::new(move |p| build(k, p))),
            network: None,
        }))
    }
}

impl Kernel {
    /// Whether the kernel imports the package named `name` (`synctest`).
    pub fn imports(&self, name: &str) -> bool {
        self.file.imports.iter().any(|i| i == name)
    }
}

/// The tests `stalemate check` runs one after another when it is given no entry:
/// every `TestX` of a test file, or of a program without `main`; none for a program
/// with `main` (it runs `main`), or a kernel that does not parse (its error is
/// reported when it is loaded).
pub fn default_tests(path: &str, text: &str) -> Vec<String> {
    let Ok(file) = parse::parse(path, text) else {
        return Vec::new();
    };
    if file.package == "main" && file.funcs.iter().any(|f| f.name == "main") {
        return Vec::new();
    }
    file.funcs
        .iter()
        .filter(|f| is_test(f))
        .map(|f| f.name.clone())
        .collect()
}

/// main for a kernel: package initialisation, then the entry.
pub fn build(k: &'static Kernel, params: &Params) -> ModelFn {
    let params: BTreeMap<String, i64> = params.0.iter().map(|(n, v)| (n.to_string(), *v)).collect();
    Arc::new(move |go: &Go| {
        // Plain memory is read and written between operations. With races checked
        // (`I::mem`), that code is the goroutine's own unless a race is reported, as
        // a model's `go.data` is; without, loom must not assume it.
        if go.checks_races() {
            go.raced_memory();
        } else {
            go.unchecked_memory();
        }
        let rt = Arc::new(Rt {
            k,
            params: params.clone(),
            globals: Env::new(None),
            next_g: AtomicUsize::new(2),
            statement_bound: go.step_bound().saturating_mul(interp::STATEMENTS_PER_STEP),
            canceled: Value::Error(Arc::from("context canceled")),
            eof: Value::Error(Arc::from("EOF")),
            closed_pipe: Value::Error(Arc::from("io: read/write on closed pipe")),
            unexpected_eof: Value::Error(Arc::from("unexpected EOF")),
            deadline: Value::Error(Arc::from("context deadline exceeded")),
            atomics: k
                .file
                .imports
                .iter()
                .any(|i| i == "atomic")
                .then(|| go.atomic("sync/atomic", 0)),
            mem: go.checks_races().then(Default::default),
            ids: Default::default(),
            roots: Default::default(),
        });
        if k.reads_clock {
            go.use_clock();
        }
        // The world asks what goroutines reach at a cut (Go's leak rule); weakly, as
        // the world outlives nothing of the kernel's.
        let weak = Arc::downgrade(&rt);
        go.set_reach(Arc::new(move |gs, extra| {
            let rt = weak.upgrade()?;
            rt.roots.reach(&rt.globals, gs, extra)
        }));
        let i = I::new(&rt, go);
        if let Err(p) = init(&i, &rt) {
            go.check("panic", false, || {
                format!("panic: {} (in package initialisation)", p.0)
            });
        }
        let f = Value::Func(Arc::new(Callable::Go(k.entry.clone(), None)));
        if k.test {
            let t = Arc::new(value::TestState::new(&k.entry.name, false));
            i.run(f, vec![Value::T(t.clone())]);
            i.cleanups(&t);
        } else {
            i.run(f, Vec::new());
        }
    })
}

fn init(i: &I, rt: &Arc<Rt>) -> Result<(), interp::Panic> {
    for (n, e) in &rt.k.file.consts {
        let v = match rt.params.get(n) {
            Some(x) => Value::Int(*x),
            None => i.eval(e, &rt.globals)?,
        };
        rt.globals.define(n, v);
    }
    for (names, ty, vals) in &rt.k.file.vars {
        for (j, n) in names.iter().enumerate() {
            let v = match (vals.get(j), ty) {
                (Some(e), _) => i.eval(e, &rt.globals)?.copy(),
                (None, Some(t)) => i.zero(t, Some(n.clone()), Pos::default())?,
                (None, None) => Value::Nil,
            };
            rt.globals.define(n, v);
        }
    }
    Ok(())
}
