//! Generics by instantiation: the interpreter is dynamically typed, so a generic
//! function or type is copied with its type parameters replaced by the type
//! arguments, once per distinct list of arguments, and the copy runs as any other.
//! `Pool[int]` becomes a declared type named `Pool[int]`; its methods are the
//! generic methods instantiated with `[int]`. Type arguments a call does not give
//! are inferred from the arguments' values; one no value shows (an empty slice, a
//! nil, a type used only in results) is `any`, whose zero value is nil.

use super::ast::*;
use super::value::{Struct, Value, lock};
use super::{Kernel, interp::is_basic};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Type parameters bound to type arguments.
pub type Bindings = BTreeMap<String, Type>;

/// Go's spelling of a type as its runtime names a type argument: declared types
/// with their package, so `Pair[string,*main.Job]` as `%T` prints it (less `main.`).
pub fn type_str(t: &Type) -> String {
    match t {
        Type::Name(n) if is_basic(n) || matches!(n.as_str(), "error" | "any") => {
            if n == "any" {
                "interface {}".into()
            } else {
                n.clone()
            }
        }
        Type::Name(n) => format!("main.{n}"),
        Type::Pkg(p, n) => format!("{p}.{n}"),
        Type::Ptr(x) => format!("*{}", type_str(x)),
        Type::Slice(x) => format!("[]{}", type_str(x)),
        Type::Map(k, v) => format!("map[{}]{}", type_str(k), type_str(v)),
        Type::Chan(x) => format!("chan {}", type_str(x)),
        Type::Func => "func()".into(),
        Type::Interface(ms) if ms.is_empty() => "interface {}".into(),
        Type::Interface(ms) => format!("interface {{ {} }}", ms.join("; ")),
        Type::Struct(fs) => {
            let fs: Vec<String> = fs
                .iter()
                .map(|f| format!("{} {}", f.name, type_str(&f.ty)))
                .collect();
            format!("struct {{ {} }}", fs.join("; "))
        }
        Type::Array(ArrayLen::N(n), x) => format!("[{n}]{}", type_str(x)),
        Type::Array(ArrayLen::Const(c), x) => format!("[{c}]{}", type_str(x)),
        Type::Array(ArrayLen::Implicit, x) => format!("[...]{}", type_str(x)),
        Type::Inst(n, args) => format!("{n}[{}]", strs(args)),
    }
}

fn strs(ts: &[Type]) -> String {
    ts.iter().map(type_str).collect::<Vec<_>>().join(",")
}

/// An instance of a generic type: the generic type, its arguments, and the type it
/// stands for (None while its own fields are instantiated: `Node[T]` holds `*Node[T]`).
type TypeInstance = (String, Vec<Type>, Option<Type>);

/// Instances made so far; shared by every execution (an instance depends on its
/// name only, so the cache changes no behaviour).
#[derive(Default)]
pub struct Instances {
    /// `Pool[int]`'s instance, by its name.
    types: std::sync::Mutex<BTreeMap<String, TypeInstance>>,
    /// Instantiated functions and methods, by `name[args]`.
    funcs: std::sync::Mutex<BTreeMap<String, Arc<Func>>>,
}

impl Kernel {
    /// A declared type or an instance of a generic one.
    pub fn named(&self, n: &str) -> Option<Type> {
        if let Some(t) = self.types.get(n) {
            return Some(t.clone());
        }
        lock(&self.instances.types).get(n).and_then(|i| i.2.clone())
    }

    /// A method of a declared type, or of an instance of a generic one.
    pub fn method(&self, ty: &str, name: &str) -> Option<Arc<Func>> {
        if let Some(f) = self.methods.get(&(ty.to_string(), name.to_string())) {
            return Some(f.clone());
        }
        let (base, args) = {
            let is = lock(&self.instances.types);
            let (b, a, _) = is.get(ty)?;
            (b.clone(), a.clone())
        };
        let f = self.methods.get(&(base, name.to_string()))?;
        let key = format!("{ty}.{name}");
        Some(self.instantiate(f, &args, &key))
    }

    /// The generic type `n` with `args`: its instance's name, made on first use.
    pub fn instance(&self, n: &str, args: Vec<Type>) -> String {
        let name = format!("{n}[{}]", strs(&args));
        {
            let mut is = lock(&self.instances.types);
            if is.contains_key(&name) {
                return name;
            }
            is.insert(name.clone(), (n.to_string(), args.clone(), None));
        }
        let params = self.generics.get(n).cloned().unwrap_or_default();
        let b: Bindings = params.into_iter().zip(args).collect();
        let t = self.types.get(n).map(|t| self.ty(t, &b));
        if let Some(i) = lock(&self.instances.types).get_mut(&name) {
            i.2 = t;
        }
        name
    }

    /// `f` with its first type parameters bound to `args` (the rest stay parameters,
    /// bound when it is called). `key` names the copy in the cache.
    pub fn instantiate(&self, f: &Arc<Func>, args: &[Type], key: &str) -> Arc<Func> {
        let key = format!("{key}[{}]", strs(args));
        if let Some(g) = lock(&self.instances.funcs).get(&key) {
            return g.clone();
        }
        let b: Bindings = f
            .tparams
            .iter()
            .cloned()
            .zip(args.iter().cloned())
            .collect();
        let mut g = self.func(f, &b);
        g.tparams = f.tparams.iter().skip(args.len()).cloned().collect();
        let g = Arc::new(g);
        lock(&self.instances.funcs).insert(key, g.clone());
        g
    }

    /// A generic function called with `args`: its type parameters inferred from them.
    pub fn infer(&self, f: &Arc<Func>, args: &[Value]) -> Arc<Func> {
        let mut b = Bindings::new();
        let n = f.params.len();
        for (i, v) in args.iter().enumerate() {
            let t = match f.params.get(i) {
                Some(_) if f.variadic && i + 1 >= n => &f.params[n - 1].1,
                Some((_, t)) => t,
                None if f.variadic && n > 0 => &f.params[n - 1].1,
                None => continue,
            };
            if let Some(vt) = self.type_of(v) {
                self.unify(t, &vt, &f.tparams, &mut b);
            }
        }
        let args: Vec<Type> = f
            .tparams
            .iter()
            .map(|p| b.get(p).cloned().unwrap_or(Type::Interface(Vec::new())))
            .collect();
        self.instantiate(f, &args, &f.name)
    }

    /// The type a value shows, as far as it shows one.
    fn type_of(&self, v: &Value) -> Option<Type> {
        let name = |s: &Struct| Type::Name(s.ty.to_string());
        Some(match v {
            Value::Int(_) => Type::Name("int".into()),
            Value::Str(_) => Type::Name("string".into()),
            Value::Bool(_) => Type::Name("bool".into()),
            Value::Error(_) => Type::Name("error".into()),
            Value::Time(_) => Type::Pkg("time".into(), "Time".into()),
            Value::Struct(s) => name(s),
            Value::Ptr(c) => match &*lock(c) {
                Value::Struct(s) => Type::Ptr(Box::new(name(s))),
                _ => return None,
            },
            Value::Slice(s) if !s.array => {
                let first = lock(&s.arr).get(s.off).cloned();
                Type::Slice(Box::new(
                    first.filter(|_| s.len > 0).and_then(|v| self.type_of(&v))?,
                ))
            }
            Value::Map(_, elem) => Type::Map(
                Box::new(Type::Interface(Vec::new())),
                Box::new((**elem).clone()),
            ),
            Value::Chan(c) => Type::Chan(Box::new(c.elem.clone())),
            _ => return None,
        })
    }

    /// Binds the parameters `ps` in `formal` to what `actual` has in their place.
    fn unify(&self, formal: &Type, actual: &Type, ps: &[String], b: &mut Bindings) {
        match (formal, actual) {
            (Type::Name(p), _) if ps.contains(p) => {
                b.entry(p.clone()).or_insert_with(|| actual.clone());
            }
            (Type::Ptr(f), Type::Ptr(a)) | (Type::Slice(f), Type::Slice(a)) => {
                self.unify(f, a, ps, b)
            }
            (Type::Chan(f), Type::Chan(a)) => self.unify(f, a, ps, b),
            (Type::Map(fk, fv), Type::Map(ak, av)) => {
                self.unify(fk, ak, ps, b);
                self.unify(fv, av, ps, b);
            }
            (Type::Inst(g, fs), Type::Name(n)) => {
                let args = match lock(&self.instances.types).get(n) {
                    Some((base, args, _)) if base == g => args.clone(),
                    _ => return,
                };
                for (f, a) in fs.iter().zip(&args) {
                    self.unify(f, a, ps, b);
                }
            }
            _ => {}
        }
    }

    // ---- substitution ----

    pub(super) fn ty(&self, t: &Type, b: &Bindings) -> Type {
        let bx = |x: &Type| Box::new(self.ty(x, b));
        match t {
            Type::Name(n) => b.get(n).cloned().unwrap_or_else(|| t.clone()),
            Type::Inst(n, args) => {
                let args = args.iter().map(|a| self.ty(a, b)).collect();
                Type::Name(self.instance(n, args))
            }
            Type::Ptr(x) => Type::Ptr(bx(x)),
            Type::Slice(x) => Type::Slice(bx(x)),
            Type::Chan(x) => Type::Chan(bx(x)),
            Type::Map(k, v) => Type::Map(bx(k), bx(v)),
            Type::Array(l, x) => Type::Array(l.clone(), bx(x)),
            Type::Struct(fs) => Type::Struct(
                fs.iter()
                    .map(|f| Field {
                        name: f.name.clone(),
                        ty: self.ty(&f.ty, b),
                        embedded: f.embedded,
                    })
                    .collect(),
            ),
            Type::Pkg(..) | Type::Interface(_) | Type::Func => t.clone(),
        }
    }

    pub(super) fn func(&self, f: &Func, b: &Bindings) -> Func {
        let ps = |xs: &[(String, Type)]| -> Vec<(String, Type)> {
            xs.iter().map(|(n, t)| (n.clone(), self.ty(t, b))).collect()
        };
        Func {
            name: f.name.clone(),
            recv: f.recv.clone(),
            tparams: Vec::new(),
            params: ps(&f.params),
            variadic: f.variadic,
            named_results: ps(&f.named_results),
            body: self.stmts(&f.body, b),
            pos: f.pos,
        }
    }

    fn stmts(&self, ss: &[Stmt], b: &Bindings) -> Vec<Stmt> {
        ss.iter().map(|s| self.stmt(s, b)).collect()
    }

    fn opt(&self, s: &Option<Box<Stmt>>, b: &Bindings) -> Option<Box<Stmt>> {
        s.as_ref().map(|s| Box::new(self.stmt(s, b)))
    }

    fn stmt(&self, s: &Stmt, b: &Bindings) -> Stmt {
        let e = |x: &Expr| self.expr(x, b);
        let es = |xs: &[Expr]| xs.iter().map(|x| self.expr(x, b)).collect::<Vec<_>>();
        let oe = |x: &Option<Expr>| x.as_ref().map(|x| self.expr(x, b));
        let kind = match &s.kind {
            S::Expr(x) => S::Expr(e(x)),
            S::Define(ns, xs) => S::Define(ns.clone(), es(xs)),
            S::Assign(a, op, c) => S::Assign(es(a), op.clone(), es(c)),
            S::IncDec(x, d) => S::IncDec(e(x), *d),
            S::Var(ns, t, xs) => S::Var(ns.clone(), t.as_ref().map(|t| self.ty(t, b)), es(xs)),
            S::Const(cs) => S::Const(cs.iter().map(|(n, x)| (n.clone(), e(x))).collect()),
            S::Send(c, v) => S::Send(e(c), e(v)),
            S::Go(x, n) => S::Go(e(x), n.clone()),
            S::Defer(x) => S::Defer(e(x)),
            S::If(i, c, t, els) => S::If(self.opt(i, b), e(c), self.stmts(t, b), self.opt(els, b)),
            S::For(i, c, p, body, l) => S::For(
                self.opt(i, b),
                oe(c),
                self.opt(p, b),
                self.stmts(body, b),
                l.clone(),
            ),
            S::Range(k, v, d, x, body, l) => {
                S::Range(oe(k), oe(v), *d, e(x), self.stmts(body, b), l.clone())
            }
            S::Switch(i, t, cs, l) => S::Switch(
                self.opt(i, b),
                oe(t),
                cs.iter()
                    .map(|c| SwitchCase {
                        values: es(&c.values),
                        body: self.stmts(&c.body, b),
                        fallthrough: c.fallthrough,
                    })
                    .collect(),
                l.clone(),
            ),
            S::Select(cs, l) => S::Select(
                cs.iter()
                    .map(|c| SelectCase {
                        comm: c.comm.as_ref().map(|m| match m {
                            Comm::Send(a, v) => Comm::Send(e(a), e(v)),
                            Comm::Recv(ts, d, x) => Comm::Recv(es(ts), *d, e(x)),
                        }),
                        body: self.stmts(&c.body, b),
                        pos: c.pos,
                    })
                    .collect(),
                l.clone(),
            ),
            S::Return(xs) => S::Return(es(xs)),
            S::Block(ss) => S::Block(self.stmts(ss, b)),
            S::Break(_) | S::Continue(_) | S::Empty => s.kind.clone(),
        };
        Stmt {
            kind,
            pos: s.pos,
            place: s.place,
        }
    }

    pub(super) fn expr(&self, x: &Expr, b: &Bindings) -> Expr {
        let e = |y: &Expr| Box::new(self.expr(y, b));
        let kind = match &x.kind {
            // A type parameter where an expression stands: `new(T)`, `T(x)`.
            E::Ident(n) if b.contains_key(n) => E::Type(b[n].clone()),
            E::Ident(_) | E::Int(_) | E::Str(_) | E::Nil => x.kind.clone(),
            E::Unary(op, y) => E::Unary(op, e(y)),
            E::Binary(op, l, r) => E::Binary(op.clone(), e(l), e(r)),
            E::Call(f, args, spread) => E::Call(
                e(f),
                args.iter().map(|a| self.expr(a, b)).collect(),
                *spread,
            ),
            E::Sel(y, n) => E::Sel(e(y), n.clone()),
            E::Index(y, i) => E::Index(e(y), e(i)),
            E::Slice(y, lo, hi) => {
                E::Slice(e(y), lo.as_ref().map(|v| e(v)), hi.as_ref().map(|v| e(v)))
            }
            E::Composite(t, els) => E::Composite(
                self.ty(t, b),
                els.iter()
                    .map(|(k, v)| (k.as_ref().map(|k| self.expr(k, b)), self.expr(v, b)))
                    .collect(),
            ),
            E::Func(f) => E::Func(Arc::new(self.func(f, b))),
            E::Type(t) => E::Type(self.ty(t, b)),
            E::Assert(y, t) => E::Assert(e(y), self.ty(t, b)),
            E::Is(y, t) => E::Is(e(y), self.ty(t, b)),
            E::Inst(f, ts) => E::Inst(e(f), ts.iter().map(|t| self.ty(t, b)).collect()),
        };
        Expr { kind, pos: x.pos }
    }
}
