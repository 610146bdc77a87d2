//! What the grammar accepts but the interpreter does not: library members outside
//! the subset. Checked before any run, so they are errors at their line and column.

use super::KernelError;
use super::ast::*;

/// The members of each importable package a kernel may use.
pub const MEMBERS: &[(&str, &[&str])] = &[
    (
        "sync",
        &[
            "Mutex",
            "RWMutex",
            "WaitGroup",
            "Once",
            "Cond",
            "NewCond",
            "Locker",
        ],
    ),
    (
        "time",
        &[
            "Sleep",
            "After",
            "NewTimer",
            "NewTicker",
            "Duration",
            "Timer",
            "Ticker",
            "Nanosecond",
            "Microsecond",
            "Millisecond",
            "Second",
            "Minute",
            "Hour",
        ],
    ),
    (
        "context",
        &[
            "Background",
            "TODO",
            "WithCancel",
            "WithTimeout",
            "Context",
            "CancelFunc",
            "Canceled",
            "DeadlineExceeded",
        ],
    ),
    ("errors", &["New", "Is"]),
    (
        "fmt",
        &[
            "Sprintf", "Sprint", "Sprintln", "Errorf", "Printf", "Println", "Print",
        ],
    ),
    ("testing", &["T"]),
];

struct C<'a> {
    f: &'a File,
}

type R = Result<(), KernelError>;

pub fn check(f: &File) -> R {
    let c = C { f };
    for (_, t) in &f.types {
        c.ty(t, Pos::default())?;
    }
    for (_, e) in &f.consts {
        c.expr(e)?;
    }
    for (_, t, es) in &f.vars {
        if let Some(t) = t {
            c.ty(t, es.first().map_or(Pos::default(), |e| e.pos))?;
        }
        for e in es {
            c.expr(e)?;
        }
    }
    for func in f.funcs.iter().chain(f.methods.iter().map(|m| &m.2)) {
        c.func(func)?;
    }
    Ok(())
}

impl C<'_> {
    fn member(&self, pkg: &str, name: &str, p: Pos) -> R {
        if !self.f.imports.iter().any(|i| i == pkg) {
            return Ok(());
        }
        let allowed = MEMBERS.iter().find(|m| m.0 == pkg).map_or(&[][..], |m| m.1);
        if allowed.contains(&name) {
            return Ok(());
        }
        Err(KernelError::at(
            &self.f.path,
            p,
            format!("{pkg}.{name} is outside the Go subset stalemate interprets"),
            Some(format!(
                "from {pkg}, a kernel may use: {}",
                allowed.join(", ")
            )),
        ))
    }

    fn ty(&self, t: &Type, p: Pos) -> R {
        match t {
            Type::Pkg(pkg, n) => self.member(pkg, n, p),
            Type::Ptr(x) | Type::Slice(x) | Type::Chan(x) => self.ty(x, p),
            Type::Map(k, v) => {
                self.ty(k, p)?;
                self.ty(v, p)
            }
            Type::Struct(fs) => fs.iter().try_for_each(|f| self.ty(&f.ty, p)),
            _ => Ok(()),
        }
    }

    fn func(&self, f: &Func) -> R {
        for (_, t) in f.params.iter().chain(&f.named_results) {
            self.ty(t, f.pos)?;
        }
        self.stmts(&f.body)
    }

    fn stmts(&self, ss: &[Stmt]) -> R {
        ss.iter().try_for_each(|s| self.stmt(s))
    }

    fn opt(&self, s: &Option<Box<Stmt>>) -> R {
        s.as_deref().map_or(Ok(()), |s| self.stmt(s))
    }

    fn exprs(&self, es: &[Expr]) -> R {
        es.iter().try_for_each(|e| self.expr(e))
    }

    fn stmt(&self, s: &Stmt) -> R {
        match &s.kind {
            S::Expr(e) | S::Go(e, _) | S::Defer(e) => self.expr(e),
            S::Define(_, es) | S::Return(es) => self.exprs(es),
            S::Assign(a, _, b) => {
                self.exprs(a)?;
                self.exprs(b)
            }
            S::IncDec(e, _) => self.expr(e),
            S::Var(_, t, es) => {
                if let Some(t) = t {
                    self.ty(t, s.pos)?;
                }
                self.exprs(es)
            }
            S::Const(cs) => cs.iter().try_for_each(|(_, e)| self.expr(e)),
            S::Send(a, b) => {
                self.expr(a)?;
                self.expr(b)
            }
            S::If(i, c, t, e) => {
                self.opt(i)?;
                self.expr(c)?;
                self.stmts(t)?;
                self.opt(e)
            }
            S::For(i, c, p, b, _) => {
                self.opt(i)?;
                if let Some(c) = c {
                    self.expr(c)?;
                }
                self.opt(p)?;
                self.stmts(b)
            }
            S::Range(k, v, _, e, b, _) => {
                for x in [k, v].into_iter().flatten() {
                    self.expr(x)?;
                }
                self.expr(e)?;
                self.stmts(b)
            }
            S::Switch(i, t, cs, _) => {
                self.opt(i)?;
                if let Some(t) = t {
                    self.expr(t)?;
                }
                for c in cs {
                    self.exprs(&c.values)?;
                    self.stmts(&c.body)?;
                }
                Ok(())
            }
            S::Select(cs, _) => {
                for c in cs {
                    match &c.comm {
                        Some(Comm::Send(a, b)) => {
                            self.expr(a)?;
                            self.expr(b)?;
                        }
                        Some(Comm::Recv(_, _, e)) => self.expr(e)?,
                        None => {}
                    }
                    self.stmts(&c.body)?;
                }
                Ok(())
            }
            S::Block(b) => self.stmts(b),
            S::Break(_) | S::Continue(_) | S::Empty => Ok(()),
        }
    }

    fn expr(&self, e: &Expr) -> R {
        match &e.kind {
            E::Sel(x, name) => {
                if let E::Ident(pkg) = &x.kind {
                    self.member(pkg, name, e.pos)?;
                }
                self.expr(x)
            }
            E::Unary(_, x) => self.expr(x),
            E::Binary(_, a, b) | E::Index(a, b) => {
                self.expr(a)?;
                self.expr(b)
            }
            E::Call(f, args, _) => {
                self.expr(f)?;
                self.exprs(args)
            }
            E::Slice(x, a, b) => {
                self.expr(x)?;
                for y in [a, b].into_iter().flatten() {
                    self.expr(y)?;
                }
                Ok(())
            }
            E::Composite(t, els) => {
                self.ty(t, e.pos)?;
                for (k, v) in els {
                    if let Some(k) = k {
                        self.expr(k)?;
                    }
                    self.expr(v)?;
                }
                Ok(())
            }
            E::Func(f) => self.func(f),
            E::Type(t) | E::Assert(_, t) => self.ty(t, e.pos),
            E::Ident(_) | E::Int(_) | E::Str(_) | E::Nil => Ok(()),
        }
    }
}
