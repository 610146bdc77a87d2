//! What the grammar accepts but the interpreter does not: library members outside
//! the subset, and names nothing defines (a typo would otherwise be found only by an
//! engine, as a runtime panic). Checked before any run, so they are errors at their
//! line and column.

use super::KernelError;
use super::ast::*;
use super::library::{LIB_MEMBERS, members};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

/// Names every kernel has: builtins, constants and the basic types.
const UNIVERSE: &[&str] = &[
    "append", "cap", "clear", "close", "copy", "delete", "len", "make", "max", "min", "new",
    "panic", "print", "println", "true", "false", "nil", "int", "int8", "int16", "int32", "int64",
    "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "byte", "rune", "string", "bool",
    "error", "any",
];

/// Go's builtin functions: a kernel may call them, but not as the call of a `go` or
/// `defer`.
pub(super) const BUILTINS: &[&str] = &[
    "append", "cap", "clear", "close", "copy", "delete", "len", "make", "max", "min", "new",
    "panic", "print", "println",
];

struct C<'a> {
    f: &'a File,
    /// Methods and struct fields the kernel declares: what a selector may name
    /// besides `LIB_MEMBERS`.
    members: BTreeSet<String>,
    /// Package-level names: functions, types, constants, variables, imports.
    globals: BTreeSet<String>,
    /// The block scopes open where the walk is, innermost last.
    scopes: RefCell<Vec<Vec<String>>>,
}

type R = Result<(), KernelError>;

pub fn check(f: &File) -> R {
    let mut globals: BTreeSet<String> = UNIVERSE.iter().map(|s| s.to_string()).collect();
    globals.extend(f.funcs.iter().map(|x| x.name.clone()));
    globals.extend(f.types.iter().map(|t| t.0.clone()));
    globals.extend(f.consts.iter().map(|c| c.0.clone()));
    globals.extend(f.vars.iter().flat_map(|v| v.0.iter().cloned()));
    globals.extend(f.imports.iter().cloned());
    let mut members = BTreeSet::new();
    for m in &f.methods {
        members.insert(m.1.clone());
    }
    for (_, t, _) in &f.types {
        declared_members(t, &mut members);
    }
    members.extend(f.fields.iter().cloned());
    let c = C {
        f,
        members,
        globals,
        scopes: RefCell::new(Vec::new()),
    };
    for (n, t, p) in &f.types {
        // A generic type's parameters are types inside its declaration.
        c.open();
        if let Some((_, ps)) = f.generic_types.iter().find(|g| g.0 == *n) {
            ps.iter().for_each(|x| c.define(x));
        }
        let r = c.ty(t, *p);
        c.close();
        r?;
    }
    // A value of a named type that is not a struct does not carry the type's name, so
    // its methods are found by the value's kind (`ast::value_kind`): two such types of
    // one kind may not share a method name.
    let lookup = |n: &str| f.types.iter().find(|t| t.0 == n).map(|t| t.1.clone());
    let mut by_kind: BTreeMap<(&str, &str), &str> = BTreeMap::new();
    for (recv, name, func) in &f.methods {
        let Some((_, t, _)) = f.types.iter().find(|(n, ..)| n == recv) else {
            continue;
        };
        if matches!(t, Type::Struct(_)) {
            continue;
        }
        let Some(kind) = value_kind(t, &lookup) else {
            c.err(
                func.pos,
                format!("method {recv}.{name} on a named pointer or interface type is outside the Go subset stalemate interprets"),
                "give the methods to a struct or to a named int, string, bool, func, chan, slice or map type; see docs/kernels.md, section \"The subset\"".into(),
            )?;
            continue;
        };
        if let Some(other) = by_kind.insert((kind, name.as_str()), recv.as_str())
            && other != recv
        {
            c.err(
                func.pos,
                format!("methods {other}.{name} and {recv}.{name} on two named {kind} types are outside the Go subset stalemate interprets"),
                format!("a {kind} value does not carry its named type here, so one {kind} type per method name; see docs/kernels.md, section \"The subset\""),
            )?;
        }
    }
    for (_, e) in &f.consts {
        c.expr(e)?;
    }
    for ((_, t, es), p) in f.vars.iter().zip(&f.var_pos) {
        if let Some(t) = t {
            c.ty(t, *p)?;
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

/// The field and method names a type declares, nested types included.
fn declared_members(t: &Type, into: &mut BTreeSet<String>) {
    match t {
        Type::Struct(fs) => {
            for f in fs {
                into.insert(f.name.clone());
                declared_members(&f.ty, into);
            }
        }
        Type::Interface(ms) => into.extend(ms.iter().cloned()),
        Type::Ptr(x) | Type::Slice(x) | Type::Chan(x) | Type::Array(_, x) => {
            declared_members(x, into)
        }
        Type::Map(k, v) => {
            declared_members(k, into);
            declared_members(v, into);
        }
        Type::Name(_) | Type::Pkg(..) | Type::Func | Type::Inst(..) => {}
    }
}

impl C<'_> {
    fn err(&self, p: Pos, message: String, help: String) -> R {
        Err(KernelError::at(&self.f.path, p, message, Some(help)))
    }

    /// `x.name` where x is a value: a member the kernel declares or a library one.
    fn selector(&self, name: &str, p: Pos) -> R {
        if self.members.contains(name) || LIB_MEMBERS.contains(&name) {
            return Ok(());
        }
        self.err(
            p,
            format!("{name} is neither a field or method this kernel declares nor a library method stalemate interprets"),
            format!("library methods and fields a kernel may use: {}", LIB_MEMBERS.join(", ")),
        )
    }

    /// `go f(x)` and `defer f(x)`: the call of a function value, or of a builtin Go
    /// allows as a statement (`defer close(ch)`); Go rejects the others (`defer len(s)`
    /// discards its result).
    fn deferred(&self, e: &Expr, what: &str) -> R {
        if let E::Call(f, _, _) = &e.kind
            && let E::Ident(n) = &f.kind
            && BUILTINS.contains(&n.as_str())
            && !["close", "delete", "panic", "print", "println"].contains(&n.as_str())
            && !self.shadowed(n)
        {
            return self.err(
                e.pos,
                format!("{what} {n}(...): Go discards the result of {n}, so it cannot be the call of {what}"),
                format!("{what} takes a function call, or one of the builtins close, delete, panic, print, println"),
            );
        }
        Ok(())
    }

    /// A local or a package-level declaration named `n` hides the builtin.
    fn shadowed(&self, n: &str) -> bool {
        self.scopes
            .borrow()
            .iter()
            .any(|s| s.iter().any(|x| x == n))
            || self.f.funcs.iter().any(|f| f.name == n)
            || self.f.vars.iter().any(|v| v.0.iter().any(|x| x == n))
    }

    fn open(&self) {
        self.scopes.borrow_mut().push(Vec::new());
    }

    fn close(&self) {
        self.scopes.borrow_mut().pop();
    }

    fn define(&self, name: &str) {
        if let Some(s) = self.scopes.borrow_mut().last_mut() {
            s.push(name.to_string());
        }
    }

    fn defined(&self, name: &str) -> bool {
        name == "_"
            || self.globals.contains(name)
            || self
                .scopes
                .borrow()
                .iter()
                .any(|s| s.iter().any(|n| n == name))
    }

    fn undefined(&self, name: &str, p: Pos) -> R {
        if self.defined(name) {
            return Ok(());
        }
        // Go's builtins the subset leaves out: not undefined, outside.
        if matches!(
            name,
            "recover" | "complex" | "real" | "imag" | "min" | "max" | "clear" | "copy"
        ) {
            return Err(KernelError::at(
                &self.f.path,
                p,
                format!("the builtin {name} is outside the Go subset stalemate interprets"),
                Some("the subset is listed in docs/kernels.md, section \"The subset\"".into()),
            ));
        }
        Err(KernelError::at(
            &self.f.path,
            p,
            format!("undefined: {name}"),
            Some("a name must be declared in the kernel, be a parameter or local in scope, or be one of Go's builtins".into()),
        ))
    }

    /// Defines the names a `:=` or range or select case introduces; checks the others.
    fn targets(&self, ts: &[&Expr], define: bool) -> R {
        for t in ts {
            match (&t.kind, define) {
                (E::Ident(n), true) => self.define(n),
                _ => self.expr(t)?,
            }
        }
        Ok(())
    }

    /// A struct type's literal keys are field names, not expressions.
    fn is_struct(&self, t: &Type) -> bool {
        let mut t = t;
        for _ in 0..32 {
            match t {
                Type::Struct(_) => return true,
                Type::Name(n) | Type::Inst(n, _) => match self.f.types.iter().find(|x| x.0 == *n) {
                    Some((_, u, _)) => t = u,
                    None => return false,
                },
                _ => return false,
            }
        }
        false
    }

    /// `pkg` names an imported package here, not a variable that hides it.
    fn is_package(&self, pkg: &str) -> bool {
        self.f.imports.iter().any(|i| i == pkg) && !self.shadowed(pkg)
    }

    fn member(&self, pkg: &str, name: &str, p: Pos) -> R {
        if !self.f.imports.iter().any(|i| i == pkg) {
            return Ok(());
        }
        let allowed = members(pkg);
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
            Type::Name(n) => self.undefined(n, p),
            Type::Pkg(pkg, n) => self.member(pkg, n, p),
            Type::Ptr(x) | Type::Slice(x) | Type::Chan(x) => self.ty(x, p),
            Type::Map(k, v) => {
                self.ty(k, p)?;
                self.ty(v, p)
            }
            Type::Struct(fs) => fs.iter().try_for_each(|f| self.ty(&f.ty, p)),
            Type::Inst(n, args) => {
                let Some((_, ps)) = self.f.generic_types.iter().find(|g| g.0 == *n) else {
                    self.undefined(n, p)?;
                    return self.err(
                        p,
                        format!("{n} is not a generic type"),
                        "type arguments go to a type declared with type parameters (`type Pool[T any] struct{...}`)".into(),
                    );
                };
                if ps.len() != args.len() {
                    return self.err(
                        p,
                        format!(
                            "{n} takes {} type arguments, given {}",
                            ps.len(),
                            args.len()
                        ),
                        format!("{n} is declared with [{}]", ps.join(", ")),
                    );
                }
                args.iter().try_for_each(|a| self.ty(a, p))
            }
            _ => Ok(()),
        }
    }

    fn func(&self, f: &Func) -> R {
        self.open();
        let r = self.func_body(f);
        self.close();
        r
    }

    fn func_body(&self, f: &Func) -> R {
        if let Some((v, _)) = &f.recv {
            self.define(v);
        }
        f.tparams.iter().for_each(|t| self.define(t));
        for (n, t) in f.params.iter().chain(&f.named_results) {
            self.ty(t, f.pos)?;
            self.define(n);
        }
        self.stmts(&f.body)
    }

    /// Checks `body` in a scope of its own.
    fn scoped(&self, body: impl FnOnce() -> R) -> R {
        self.open();
        let r = body();
        self.close();
        r
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
            S::Expr(e) => self.expr(e),
            S::Go(e, _) => {
                self.deferred(e, "go")?;
                self.expr(e)
            }
            S::Defer(e) => {
                self.deferred(e, "defer")?;
                self.expr(e)
            }
            S::Return(es) => self.exprs(es),
            S::Define(names, es) => {
                self.exprs(es)?;
                names.iter().for_each(|n| self.define(n));
                Ok(())
            }
            S::Assign(a, _, b) => {
                self.exprs(a)?;
                self.exprs(b)
            }
            S::IncDec(e, _) => self.expr(e),
            S::Var(names, t, es) => {
                if let Some(t) = t {
                    self.ty(t, s.pos)?;
                }
                self.exprs(es)?;
                names.iter().for_each(|n| self.define(n));
                Ok(())
            }
            S::Const(cs) => cs.iter().try_for_each(|(n, e)| {
                self.expr(e)?;
                self.define(n);
                Ok(())
            }),
            S::Send(a, b) => {
                self.expr(a)?;
                self.expr(b)
            }
            S::If(i, c, t, e) => self.scoped(|| {
                self.opt(i)?;
                self.expr(c)?;
                self.scoped(|| self.stmts(t))?;
                self.opt(e)
            }),
            S::For(i, c, p, b, _) => self.scoped(|| {
                self.opt(i)?;
                if let Some(c) = c {
                    self.expr(c)?;
                }
                self.opt(p)?;
                self.scoped(|| self.stmts(b))
            }),
            S::Range(k, v, define, e, b, _) => {
                self.expr(e)?;
                self.scoped(|| {
                    let ts: Vec<&Expr> = [k, v].into_iter().flatten().collect();
                    self.targets(&ts, *define)?;
                    self.stmts(b)
                })
            }
            S::Switch(i, t, cs, _) => self.scoped(|| {
                self.opt(i)?;
                if let Some(t) = t {
                    self.expr(t)?;
                }
                for c in cs {
                    self.exprs(&c.values)?;
                    self.scoped(|| self.stmts(&c.body))?;
                }
                Ok(())
            }),
            S::Select(cs, _) => {
                for c in cs {
                    self.scoped(|| {
                        match &c.comm {
                            Some(Comm::Send(a, b)) => {
                                self.expr(a)?;
                                self.expr(b)?;
                            }
                            Some(Comm::Recv(ts, define, e)) => {
                                self.expr(e)?;
                                let ts: Vec<&Expr> = ts.iter().collect();
                                self.targets(&ts, *define)?;
                            }
                            None => {}
                        }
                        self.stmts(&c.body)
                    })?;
                }
                Ok(())
            }
            S::Block(b) => self.scoped(|| self.stmts(b)),
            S::Break(_) | S::Continue(_) | S::Empty => Ok(()),
        }
    }

    fn expr(&self, e: &Expr) -> R {
        match &e.kind {
            E::Sel(x, name) => {
                match &x.kind {
                    E::Ident(pkg) if self.is_package(pkg) => self.member(pkg, name, e.pos)?,
                    _ => self.selector(name, e.pos)?,
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
                if let Type::Pkg(pkg, n) = t
                    && !els.is_empty()
                {
                    return self.err(
                        e.pos,
                        format!("a {pkg}.{n} literal with elements is outside the subset stalemate interprets"),
                        format!("use its zero value: `{pkg}.{n}{{}}`, `var x {pkg}.{n}` or `new({pkg}.{n})`"),
                    );
                }
                self.ty(t, e.pos)?;
                let fields = self.is_struct(t);
                for (k, v) in els {
                    if let Some(k) = k
                        && !fields
                    {
                        self.expr(k)?;
                    }
                    self.expr(v)?;
                }
                Ok(())
            }
            E::Func(f) => self.func(f),
            E::Inst(f, ts) => {
                self.expr(f)?;
                ts.iter().try_for_each(|t| self.ty(t, e.pos))
            }
            E::Type(t) | E::Assert(_, t) => self.ty(t, e.pos),
            E::Is(x, t) => {
                self.expr(x)?;
                self.ty(t, e.pos)
            }
            E::Ident(n) => self.undefined(n, e.pos),
            E::Int(_) | E::Str(_) | E::Nil => Ok(()),
        }
    }
}
