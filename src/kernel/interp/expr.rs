//! Expressions: values, operators, composites, types, places, calls and builtins.

use super::*;

impl<'a> I<'a> {
    // ---- expressions ----

    /// Values for `n` targets: one call returning a tuple, or one value each.
    pub(super) fn values(&self, es: &[Expr], env: &Env, names: &[String]) -> R<Vec<Value>> {
        if es.len() == 1 && names.len() > 1 {
            return match self.eval_multi(&es[0], env)? {
                Value::Tuple(vs) => Ok(vs),
                v => Ok(vec![v]),
            };
        }
        es.iter()
            .enumerate()
            .map(|(i, e)| self.hinted(names.get(i).cloned(), || self.eval(e, env)))
            .collect()
    }

    /// Like `eval`, but `v, ok := <-ch`, `v, ok := m[k]` and `x, ok := y.(T)` give two.
    pub(super) fn eval_multi(&self, e: &Expr, env: &Env) -> R<Value> {
        match &e.kind {
            E::Unary("<-", c) => {
                let c = self.eval(c, env)?;
                let (v, ok) = self.recv(&c)?;
                Ok(Value::Tuple(vec![v, Value::Bool(ok)]))
            }
            E::Index(m, k) => {
                let m = self.eval(m, env)?;
                let k = self.eval(k, env)?;
                match &m {
                    Value::Map(map, elem) => {
                        let key = self.key_of(&k)?;
                        let got = lock(map).get(&key).cloned();
                        Ok(match got {
                            Some(v) => Value::Tuple(vec![v, Value::Bool(true)]),
                            None => Value::Tuple(vec![
                                self.zero(elem, None, e.pos)?,
                                Value::Bool(false),
                            ]),
                        })
                    }
                    Value::Nil => Ok(Value::Tuple(vec![Value::Nil, Value::Bool(false)])),
                    _ => self.eval(e, env),
                }
            }
            E::Assert(x, t) => {
                let v = self.eval(x, env)?;
                let ok = self.has_type(&v, t);
                Ok(Value::Tuple(vec![
                    if ok { v } else { Value::Nil },
                    Value::Bool(ok),
                ]))
            }
            _ => self.eval(e, env),
        }
    }

    pub(super) fn args(&self, es: &[Expr], spread: bool, env: &Env) -> R<Vec<Value>> {
        let mut out: Vec<Value> = Vec::new();
        if es.len() == 1
            && let E::Call(..) = es[0].kind
        {
            // f(g()) passes every result of g.
            return Ok(match self.eval(&es[0], env)? {
                Value::Tuple(vs) => vs,
                v => vec![v],
            });
        }
        for e in es {
            out.push(self.eval(e, env)?.copy_by(self));
        }
        if spread && let Some(Value::Slice(s)) = out.pop() {
            out.extend(lock(&s.arr)[s.off..s.off + s.len].iter().cloned());
        }
        Ok(out)
    }

    pub fn eval(&self, e: &Expr, env: &Env) -> R<Value> {
        match &e.kind {
            E::Int(i) => Ok(Value::Int(*i)),
            E::Inst(f, ts) => self.generic_value(self.eval(f, env)?, ts),
            E::Str(s) => Ok(Value::str(s)),
            E::Nil => Ok(Value::Nil),
            E::Ident(n) => self.ident(n, env),
            E::Unary(op, x) => self.unary(op, x, env),
            E::Binary(op, a, b) => {
                let a = self.eval(a, env)?;
                match (op.as_str(), &a) {
                    ("&&", Value::Bool(false)) => return Ok(a),
                    ("||", Value::Bool(true)) => return Ok(a),
                    _ => {}
                }
                let b = self.eval(b, env)?;
                if matches!(op.as_str(), "==" | "!=") {
                    // Comparing structs or arrays reads every field and element.
                    self.read_whole(&a);
                    self.read_whole(&b);
                }
                binary(op, a, b)
            }
            E::Call(f, args, spread) => self.call_expr(f, args, *spread, env, e.pos),
            E::Sel(x, name) => self.select_expr(x, name, env),
            E::Index(xe, i) => {
                let x = self.eval(xe, env)?;
                // `f[int]`: a generic function's one type argument.
                if let Value::Func(c) = &x
                    && matches!(&**c, Callable::Go(f, _) if !f.tparams.is_empty())
                {
                    return self.generic_value(x.clone(), &[self.type_arg(i)?]);
                }
                let i = self.eval(i, env)?;
                match &x {
                    Value::Slice(s) => {
                        let at = slot(s, &i)?;
                        self.elem_access(&s.arr, at, || elem_name(xe, at), false);
                        Ok(lock(&s.arr)[at].clone())
                    }
                    Value::Map(m, elem) => {
                        let key = self.key_of(&i)?;
                        self.map_access(m, || describe(xe), false);
                        match lock(m).get(&key).cloned() {
                            Some(v) => Ok(v),
                            None => self.zero(elem, None, e.pos),
                        }
                    }
                    Value::Nil => Ok(Value::Nil),
                    Value::Str(s) => {
                        let i = int(&i)?;
                        s.as_bytes()
                            .get(i as usize)
                            .map(|b| Value::Int(*b as i64))
                            .ok_or_else(|| {
                                rt_err(format!("index out of range [{i}] with length {}", s.len()))
                            })
                    }
                    o => Err(unsupported(format!("cannot index {}", o.show()))),
                }
            }
            E::Slice(x, lo, hi) => {
                let x = self.eval(x, env)?;
                let lo = match lo {
                    Some(l) => int(&self.eval(l, env)?)? as usize,
                    None => 0,
                };
                match x {
                    Value::Slice(s) => {
                        let hi = match hi {
                            Some(h) => int(&self.eval(h, env)?)? as usize,
                            None => s.len,
                        };
                        if lo > hi || hi > s.cap {
                            return Err(rt_err(format!(
                                "slice bounds out of range [{lo}:{hi}] with capacity {}",
                                s.cap
                            )));
                        }
                        Ok(Value::Slice(Slice {
                            arr: s.arr,
                            off: s.off + lo,
                            len: hi - lo,
                            cap: s.cap - lo,
                            array: false,
                        }))
                    }
                    Value::Nil => Ok(Value::Nil),
                    Value::Str(s) => {
                        let hi = match hi {
                            Some(h) => int(&self.eval(h, env)?)? as usize,
                            None => s.len(),
                        };
                        s.get(lo..hi)
                            .map(Value::str)
                            .ok_or_else(|| rt_err(format!("slice bounds out of range [{lo}:{hi}]")))
                    }
                    o => Err(unsupported(format!("cannot slice {}", o.show()))),
                }
            }
            E::Composite(ty, elems) => self.composite(ty, elems, env, e.pos),
            E::Func(f) => Ok(Value::Func(Arc::new(Callable::Go(
                f.clone(),
                Some(env.clone()),
            )))),
            E::Type(_) => Err(unsupported("a type is not a value")),
            E::Is(x, t) => {
                let v = self.eval(x, env)?;
                Ok(Value::Bool(self.has_type(&v, t)))
            }
            E::Assert(x, t) => {
                let v = self.eval(x, env)?;
                if self.has_type(&v, t) {
                    Ok(v)
                } else {
                    Err(Panic(format!(
                        "interface conversion: {} is not {t:?}",
                        v.show()
                    )))
                }
            }
        }
    }

    pub(super) fn ident(&self, n: &str, env: &Env) -> R<Value> {
        if let Some(c) = env.lookup(n) {
            self.cell_access(&c, || n.to_string(), false);
            return Ok(lock(&c).clone());
        }
        match n {
            "true" => return Ok(Value::Bool(true)),
            "false" => return Ok(Value::Bool(false)),
            _ => {}
        }
        if let Some(f) = self.k().funcs.get(n) {
            return Ok(Value::Func(Arc::new(Callable::Go(f.clone(), None))));
        }
        Err(unsupported(format!("undefined: {n}")))
    }

    pub(super) fn unary(&self, op: &str, x: &Expr, env: &Env) -> R<Value> {
        match op {
            "<-" => {
                let c = self.eval(x, env)?;
                Ok(self.recv(&c)?.0)
            }
            "&" => match &x.kind {
                E::Composite(..) => Ok(Value::Ptr(cell(self.eval(x, env)?))),
                _ => match self.place(x, env)? {
                    Place::Cell(c) => Ok(Value::Ptr(c)),
                    Place::Elem(a, i) => Ok(Value::ElemPtr(a, i)),
                    _ => Err(unsupported("cannot take this address")),
                },
            },
            "*" => match self.eval(x, env)? {
                Value::Ptr(c) => {
                    self.cell_access(&c, || format!("*{}", describe(x)), false);
                    Ok(lock(&c).clone())
                }
                Value::ElemPtr(a, i) => {
                    self.elem_access(&a, i, || format!("*{}", describe(x)), false);
                    Ok(lock(&a)[i].clone())
                }
                Value::Nil => Err(rt_err("invalid memory address or nil pointer dereference")),
                o => Err(unsupported(format!("cannot dereference {}", o.show()))),
            },
            "-" => Ok(Value::Int(int(&self.eval(x, env)?)?.wrapping_neg())),
            "+" => self.eval(x, env),
            "!" => Ok(Value::Bool(!truth(&self.eval(x, env)?)?)),
            _ => Err(unsupported(format!("operator {op}"))),
        }
    }

    pub(super) fn composite(
        &self,
        ty: &Type,
        elems: &[(Option<Expr>, Expr)],
        env: &Env,
        p: Pos,
    ) -> R<Value> {
        // `sync.Mutex{}`, `&sync.WaitGroup{}`: the zero value (the checker refuses
        // library literals with elements).
        if let Type::Pkg(..) = ty
            && elems.is_empty()
        {
            return self.zero(ty, None, p);
        }
        match self.underlying(ty) {
            Type::Struct(fields) => {
                let tname = match ty {
                    Type::Name(n) => n.clone(),
                    _ => "struct".into(),
                };
                let mut vals: Vec<Option<Value>> = vec![None; fields.len()];
                for (i, (k, v)) in elems.iter().enumerate() {
                    let idx = match k {
                        Some(Expr {
                            kind: E::Ident(n), ..
                        }) => fields.iter().position(|f| f.name == *n).ok_or_else(|| {
                            unsupported(format!("unknown field {n} in struct literal"))
                        })?,
                        _ => i,
                    };
                    let Some(field) = fields.get(idx) else {
                        return Err(unsupported(format!("too many values in {tname} literal")));
                    };
                    let name = format!("{tname}.{}", field.name);
                    vals[idx] = Some(self.hinted(Some(name), || self.eval(v, env))?.copy_by(self));
                }
                let mut cells = Vec::new();
                for (f, v) in fields.iter().zip(vals) {
                    let v = match v {
                        Some(v) => v,
                        None => self.zero(&f.ty, Some(format!("{tname}.{}", f.name)), p)?,
                    };
                    cells.push(cell(v));
                }
                Ok(Value::Struct(Arc::new(Struct {
                    ty: Arc::from(tname.as_str()),
                    layout: Arc::new(Layout {
                        names: fields.iter().map(|f| f.name.clone()).collect(),
                        embedded: fields.iter().map(|f| f.embedded).collect(),
                    }),
                    fields: cells,
                })))
            }
            Type::Slice(_) => {
                let vs: Vec<Value> = elems
                    .iter()
                    .map(|(_, v)| self.eval(v, env).map(|v| v.copy_by(self)))
                    .collect::<R<_>>()?;
                Ok(slice_of(vs))
            }
            Type::Array(len, elem) => {
                // Elements in order, or at the index their key gives; the rest zero.
                let mut at: BTreeMap<usize, Value> = BTreeMap::new();
                let mut next = 0;
                for (k, v) in elems {
                    if let Some(k) = k {
                        next = usize::try_from(int(&self.eval(k, env)?)?)
                            .map_err(|_| rt_err("array index out of range"))?;
                    }
                    at.insert(next, self.eval(v, env)?.copy_by(self));
                    next += 1;
                }
                let n = match len {
                    ArrayLen::Implicit => at.keys().next_back().map_or(0, |k| k + 1),
                    _ => self.array_len(&len)?,
                };
                if at.keys().next_back().is_some_and(|k| *k >= n) {
                    return Err(rt_err(format!("array index out of bounds [{n}]")));
                }
                let mut vs = Vec::with_capacity(n);
                for i in 0..n {
                    vs.push(match at.remove(&i) {
                        Some(v) => v,
                        None => self.zero(&elem, None, p)?,
                    });
                }
                Ok(array_of(vs))
            }
            Type::Map(..) => {
                let mut m = BTreeMap::new();
                for (k, v) in elems {
                    let k = match k {
                        Some(k) => self.eval(k, env)?,
                        None => return Err(unsupported("map literal element without a key")),
                    };
                    let key = self.key_of(&k)?;
                    m.insert(key, self.eval(v, env)?.copy_by(self));
                }
                let elem = match self.underlying(ty) {
                    Type::Map(_, v) => v,
                    _ => unreachable!("a map literal's type is a map"),
                };
                Ok(Value::Map(Arc::new(Mutex::new(m)), Arc::from(elem)))
            }
            t => Err(unsupported(format!("composite literal of {t:?}"))),
        }
    }

    /// The type a named type stands for.
    pub(super) fn underlying(&self, t: &Type) -> Type {
        let mut t = t.clone();
        for _ in 0..32 {
            match &t {
                Type::Name(n) => match self.k().named(n) {
                    Some(u) => t = u,
                    None => return t,
                },
                _ => return t,
            }
        }
        t
    }

    pub(super) fn has_type(&self, v: &Value, t: &Type) -> bool {
        // A library interface (`io.Reader`, `net.Error`): every one of its methods.
        if let Type::Pkg(pkg, n) = t
            && let Some(ms) = crate::kernel::library::interface(&format!("{pkg}.{n}"))
        {
            let ms: Vec<String> = ms.iter().map(|m| m.to_string()).collect();
            return self.has_type(v, &Type::Interface(ms));
        }
        // A declared interface: the value has every one of its methods.
        if let Type::Name(n) = t
            && let Some(Type::Interface(ms)) = self.k().named(n)
        {
            return self.has_type(v, &Type::Interface(ms));
        }
        if let (Type::Interface(ms), false) = (t, ms_empty(t)) {
            // A value of a named non-struct type: its methods, found by its kind.
            if !matches!(v, Value::Struct(_) | Value::Ptr(_) | Value::Error(_))
                && ms.iter().all(|m| self.kind_method(v, m).is_some())
            {
                return true;
            }
            let ty = match v {
                Value::Struct(s) => Some(s.ty.clone()),
                Value::Ptr(c) => match &*lock(c) {
                    Value::Struct(s) => Some(s.ty.clone()),
                    _ => None,
                },
                Value::Error(_) => return ms.iter().all(|m| m == "Error"),
                _ => None,
            };
            return ty.is_some_and(|ty| {
                ms.iter().all(|m| {
                    helpers::lib_struct_method(&ty, m) || self.k().method(&ty, m).is_some()
                })
            });
        }
        // A named type that is not a struct: a value of its kind.
        if let Type::Name(n) = t
            && let Some(u) = self.k().named(n)
            && !matches!(u, Type::Struct(_) | Type::Interface(_))
        {
            let k = self.k();
            let lookup = |n: &str| k.named(n);
            return Self::kind_of(v).is_some_and(|k| value_kind(&u, &lookup) == Some(k));
        }
        match (v, t) {
            (Value::Ptr(c), Type::Ptr(inner)) => match (&*lock(c), &**inner) {
                (Value::Struct(s), Type::Name(n)) => *s.ty == **n,
                _ => false,
            },
            (Value::ElemPtr(a, i), Type::Ptr(inner)) => match (lock(a).get(*i), &**inner) {
                (Some(Value::Struct(s)), Type::Name(n)) => *s.ty == **n,
                _ => false,
            },
            (Value::Struct(s), Type::Name(n)) => *s.ty == **n,
            (Value::Int(_), Type::Name(n)) => is_integer(n),
            (Value::Str(_), Type::Name(n)) => n == "string",
            (Value::Bool(_), Type::Name(n)) => n == "bool",
            (Value::Error(_), Type::Name(n)) => n == "error",
            // `x.(chan T)`: a channel of that element type.
            (Value::Chan(k), Type::Chan(e)) => k.elem == **e,
            (Value::Nil, _) => false,
            (_, Type::Interface(ms)) => ms.is_empty(),
            _ => false,
        }
    }

    /// The zero value of a type; sync types are made here, named by `name`.
    pub fn zero(&self, t: &Type, name: Option<String>, p: Pos) -> R<Value> {
        let name = || name.clone().unwrap_or_else(|| self.name_for("var", p));
        Ok(match t {
            Type::Name(n) => match n.as_str() {
                n if is_integer(n) => Value::Int(0),
                "bool" => Value::Bool(false),
                "string" => Value::str(""),
                "error" | "any" => Value::Nil,
                _ => match self.k().named(n) {
                    Some(Type::Struct(_)) => self.composite(t, &[], &self.rt.globals, p)?,
                    Some(u) => self.zero(&u, Some(name()), p)?,
                    None => return Err(unsupported(format!("undefined type {n}"))),
                },
            },
            Type::Pkg(pkg, n) => match (pkg.as_str(), n.as_str()) {
                ("sync", "Mutex") => Value::Sync(Arc::new(SyncObj::Mutex(self.go.mutex(&name())))),
                ("sync", "RWMutex") => {
                    Value::Sync(Arc::new(SyncObj::RwMutex(self.go.rwmutex(&name()))))
                }
                ("sync", "WaitGroup") => {
                    Value::Sync(Arc::new(SyncObj::WaitGroup(self.go.waitgroup(&name()))))
                }
                ("sync", "Once") => Value::Sync(Arc::new(SyncObj::Once(self.go.once(&name())))),
                ("time", "Duration") => Value::Int(0),
                ("time", "Time") => Value::Time(ZERO_TIME),
                // A zero Cond: its L is assigned by hand (`c.L = &mu`) before use.
                ("sync", "Cond") => Value::Sync(Arc::new(SyncObj::Cond(Mutex::new(None), name()))),
                ("sync", "Map") => Value::Sync(Arc::new(SyncObj::Map(
                    self.go.atomic(&name(), 0),
                    Mutex::new(Entries::new()),
                ))),
                ("bytes", "Buffer") => helpers::buffer(helpers::BUFFER, ""),
                ("strings", "Builder") => helpers::buffer(helpers::BUILDER, ""),
                ("atomic", "Value" | "Pointer") => Value::Sync(Arc::new(SyncObj::AtomicValue(
                    self.go.atomic(&name(), 0),
                    Mutex::new(Value::Nil),
                    n == "Pointer",
                ))),
                ("atomic", "Int32" | "Int64" | "Uint32" | "Uint64" | "Bool") => Value::Sync(
                    Arc::new(SyncObj::Atomic(self.go.atomic(&name(), 0), n == "Bool")),
                ),
                _ => Value::Nil,
            },
            Type::Struct(_) => self.composite(t, &[], &self.rt.globals, p)?,
            Type::Array(len, elem) => {
                let mut vs = Vec::new();
                for i in 0..self.array_len(len)? {
                    vs.push(self.zero(elem, Some(format!("{}[{i}]", name())), p)?);
                }
                array_of(vs)
            }
            _ => Value::Nil,
        })
    }

    /// The length an array type declares.
    fn array_len(&self, len: &ArrayLen) -> R<usize> {
        let n = match len {
            ArrayLen::N(n) => *n,
            ArrayLen::Const(c) => int(&self.ident(c, &self.rt.globals)?)?,
            ArrayLen::Implicit => return Err(unsupported("[...]T outside a composite literal")),
        };
        if !(0..=MAX_MAKE).contains(&n) {
            return Err(rt_err(format!("array length {n} out of range")));
        }
        Ok(n as usize)
    }

    // ---- places ----

    pub(super) fn place(&self, e: &Expr, env: &Env) -> R<Place> {
        match &e.kind {
            E::Ident(n) if n == "_" => Ok(Place::Blank),
            E::Ident(n) => env
                .lookup(n)
                .map(Place::Cell)
                .ok_or_else(|| unsupported(format!("undefined: {n}"))),
            E::Unary("*", x) => match self.eval(x, env)? {
                Value::Ptr(c) => Ok(Place::Cell(c)),
                Value::ElemPtr(a, i) => Ok(Place::Elem(a, i)),
                _ => Err(rt_err("invalid memory address or nil pointer dereference")),
            },
            E::Sel(x, f) => {
                let base = self.eval(x, env)?;
                if let Value::Nil = base {
                    return Err(rt_err("invalid memory address or nil pointer dereference"));
                }
                if f == "L"
                    && let Some(s) = cond_of(&base)
                {
                    return Ok(Place::CondL(s));
                }
                self.field_cell(&base, f)
                    .map(Place::Cell)
                    .ok_or_else(|| unsupported(format!("no field {f} in {}", base.show())))
            }
            E::Index(x, i) => {
                let base = self.eval(x, env)?;
                let i = self.eval(i, env)?;
                match base {
                    Value::Map(m, _) => Ok(Place::Map(m, self.key_of(&i)?)),
                    Value::Slice(s) => {
                        let at = slot(&s, &i)?;
                        Ok(Place::Elem(s.arr, at))
                    }
                    Value::Nil => Err(Panic("assignment to entry in nil map".into())),
                    o => Err(unsupported(format!("cannot index {}", o.show()))),
                }
            }
            _ => Err(unsupported("cannot assign to this expression")),
        }
    }

    /// Stores `v` at `p`, the place `target` names.
    pub(super) fn store(&self, p: Place, v: Value, target: &Expr) -> R<()> {
        match p {
            Place::Blank => {}
            Place::Cell(c) => {
                let old = lock(&c).clone();
                if let Some(v) = self.assign_in_place(&old, v, &|| describe(target)) {
                    self.cell_access(&c, || describe(target), true);
                    *lock(&c) = v
                }
            }
            Place::Map(m, k) => {
                self.map_access(&m, || index_base(target), true);
                lock(&m).insert(k, v);
            }
            Place::Elem(a, i) => {
                let name = || format!("{}[{i}]", index_base(target));
                let old = lock(&a)[i].clone();
                if let Some(v) = self.assign_in_place(&old, v, &name) {
                    self.elem_access(&a, i, name, true);
                    lock(&a)[i] = v
                }
            }
            Place::CondL(s) => {
                let SyncObj::Cond(slot, name) = &*s else {
                    unreachable!("cond_of gives a Cond")
                };
                let (locker, l) = locker_of(&v)?;
                let mut slot = lock(slot);
                if slot.is_some() {
                    return Err(unsupported("assigning L of a Cond that has one"));
                }
                *slot = Some((self.go.cond(name, locker), l));
            }
        }
        Ok(())
    }

    /// The cell of field `f` of a struct or a pointer to one, embedded fields included.
    /// The shallowest first, as Go's selectors find them.
    pub(super) fn field_cell(&self, base: &Value, f: &str) -> Option<Cell> {
        let mut level = vec![base.clone()];
        for _ in 0..EMBED_DEPTH {
            let mut next = Vec::new();
            for v in &level {
                let Some(s) = struct_of(v) else { continue };
                if let Some(i) = s.layout.names.iter().position(|n| n == f) {
                    return Some(s.fields[i].clone());
                }
                next.extend(self.embedded_values(&s));
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        None
    }

    /// The values of a struct's embedded fields.
    pub(super) fn embedded_values(&self, s: &Struct) -> Vec<Value> {
        (s.layout.embedded.iter().zip(&s.fields))
            .filter(|(e, _)| **e)
            .map(|(_, c)| lock(c).clone())
            .collect()
    }

    // ---- calls by expression ----

    pub(super) fn call_expr(
        &self,
        f: &Expr,
        args: &[Expr],
        spread: bool,
        env: &Env,
        p: Pos,
    ) -> R<Value> {
        // Builtins and conversions first: their arguments may be types. A package's
        // function or type of a builtin's name hides it, as any declaration does.
        match &f.kind {
            E::Ident(n) if env.lookup(n).is_none() && !self.k().funcs.contains_key(n) => {
                if self.k().named(n).is_none()
                    && let Some(v) = self.builtin(n, args, spread, env, p)?
                {
                    return Ok(v);
                }
                if n == "uintptr" {
                    return self.address(args, env);
                }
                if self.k().named(n).is_some() || is_basic(n) {
                    let v = self.convert(args, env)?;
                    return Ok(self.converted(v, &Type::Name(n.clone())));
                }
            }
            E::Type(t) => {
                let v = self.convert(args, env)?;
                return Ok(self.converted(v, t));
            }
            // `(*T)(x)`: a conversion to a pointer type, which keeps the value.
            E::Unary("*", t) if self.names_type(t, env) => return self.convert(args, env),
            E::Sel(x, name) => {
                if let Some(pkg) = self.package(x, env) {
                    let vs = self.args(args, spread, env)?;
                    if pkg == "atomic" {
                        // The variable `atomic.AddInt64(&n, 1)` works on, named as
                        // its plain accesses name it.
                        let target = match args.first().map(|e| &e.kind) {
                            Some(E::Unary("&", x)) => describe(x),
                            Some(_) => format!("*{}", describe(&args[0])),
                            None => String::new(),
                        };
                        return self.atomic_function(name, &vs, target);
                    }
                    return self.library(pkg, name, vs, p);
                }
            }
            _ => {}
        }
        let fv = self.eval(f, env)?;
        let vs = self.args(args, spread, env)?;
        self.call(&fv, vs)
    }

    /// Whether `e` names a type (`T`, `unsafe.Pointer`) rather than a value.
    fn names_type(&self, e: &Expr, env: &Env) -> bool {
        match &e.kind {
            E::Ident(n) => env.lookup(n).is_none() && (self.k().named(n).is_some() || is_basic(n)),
            E::Sel(x, _) => self.package(x, env).is_some(),
            _ => false,
        }
    }

    /// `uintptr(x)`: an integer stays one; a pointer (`unsafe.Pointer(p)`, a channel, a
    /// map, a sync value) becomes its address (`interp::address`).
    fn address(&self, args: &[Expr], env: &Env) -> R<Value> {
        let v = self.convert(args, env)?;
        if let Value::Int(_) = v {
            return Ok(v);
        }
        match super::address(&v, &self.rt.ids) {
            Some(a) => Ok(Value::Int(a)),
            None => Err(unsupported(format!("uintptr of {}", v.show()))),
        }
    }

    /// `T(x)`: every conversion the subset has keeps the value.
    /// A conversion's value where Go's changes it: text to and from `[]byte` and
    /// `[]rune`, a rune to a string, and an integer to a narrower integer type.
    fn converted(&self, v: Value, t: &Type) -> Value {
        let elem = |t: &Type| match self.underlying(t) {
            Type::Slice(e) => match *e {
                Type::Name(n) if matches!(n.as_str(), "byte" | "uint8") => Some(8),
                Type::Name(n) if matches!(n.as_str(), "rune" | "int32") => Some(32),
                _ => None,
            },
            _ => None,
        };
        match (self.underlying(t), &v) {
            (Type::Name(n), Value::Slice(s)) if n == "string" => {
                let xs: Vec<i64> = lock(&s.arr)[s.off..s.off + s.len]
                    .iter()
                    .map(|x| if let Value::Int(i) = x { *i } else { 0 })
                    .collect();
                // A slice does not carry its element type: one whose values are all
                // below 256 is taken as bytes (UTF-8), any other as runes.
                let text = if xs.iter().all(|x| (0..256).contains(x)) {
                    String::from_utf8_lossy(&xs.iter().map(|x| *x as u8).collect::<Vec<_>>())
                        .into_owned()
                } else {
                    xs.iter()
                        .map(|x| char::from_u32(*x as u32).unwrap_or('\u{fffd}'))
                        .collect()
                };
                Value::str(&text)
            }
            (Type::Name(n), Value::Int(i)) if n == "string" => {
                Value::str(&char::from_u32(*i as u32).unwrap_or('\u{fffd}').to_string())
            }
            (Type::Name(n), Value::Int(i)) => Value::Int(match n.as_str() {
                "int8" => *i as i8 as i64,
                "int16" => *i as i16 as i64,
                "int32" | "rune" => *i as i32 as i64,
                "uint8" | "byte" => *i as u8 as i64,
                "uint16" => *i as u16 as i64,
                "uint32" => *i as u32 as i64,
                _ => *i,
            }),
            (_, Value::Str(s)) => match elem(t) {
                Some(8) => slice_of(s.bytes().map(|b| Value::Int(b as i64)).collect()),
                Some(_) => slice_of(s.chars().map(|c| Value::Int(c as i64)).collect()),
                None => v,
            },
            // A struct converted to another named struct type is a value of that type,
            // with its methods (`A(b).m()` calls A's m).
            (Type::Struct(_), Value::Struct(_)) => match (t, v.copy_by(self)) {
                (Type::Name(n), Value::Struct(c)) => Value::Struct(Arc::new(Struct {
                    ty: Arc::from(n.as_str()),
                    layout: c.layout.clone(),
                    fields: c.fields.clone(),
                })),
                (_, c) => c,
            },
            _ => v,
        }
    }

    pub(super) fn convert(&self, args: &[Expr], env: &Env) -> R<Value> {
        match args {
            [x] => self.eval(x, env),
            _ => Err(unsupported("a conversion takes exactly one argument")),
        }
    }

    pub(super) fn builtin(
        &self,
        n: &str,
        args: &[Expr],
        spread: bool,
        env: &Env,
        p: Pos,
    ) -> R<Option<Value>> {
        let least = match n {
            "len" | "cap" | "append" | "close" | "panic" | "new" | "make" => 1,
            "min" | "max" | "clear" => 1,
            "delete" | "copy" => 2,
            "print" | "println" => 0,
            _ => return Ok(None),
        };
        if args.len() < least {
            return Err(unsupported(format!("not enough arguments in call to {n}")));
        }
        let ev = |i: usize| self.eval(&args[i], env);
        Ok(Some(match n {
            "len" | "cap" => match ev(0)? {
                Value::Slice(s) => Value::Int(if n == "len" { s.len } else { s.cap } as i64),
                Value::Str(s) if n == "len" => Value::Int(s.len() as i64),
                Value::Map(m, _) if n == "len" => {
                    self.map_access(&m, || describe(&args[0]), false);
                    Value::Int(lock(&m).len() as i64)
                }
                Value::Chan(k) => Value::Int(match &k.c {
                    ChanImpl::Val(c) if n == "len" => c.len(),
                    ChanImpl::Val(c) => c.cap(),
                    // A timer's channel has capacity 1, as before Go 1.23 (`go::time`).
                    ChanImpl::Time(c) if n == "len" => c.len(),
                    ChanImpl::Time(c) => c.cap(),
                    ChanImpl::Nil(_) => 0,
                } as i64),
                Value::Nil => Value::Int(0),
                o => return Err(unsupported(format!("{n} of {}", o.show()))),
            },
            "append" => {
                let base = ev(0)?;
                let mut more = Vec::new();
                for a in &args[1..] {
                    more.push(self.eval(a, env)?.copy_by(self));
                }
                if spread && let Some(Value::Slice(s)) = more.pop() {
                    for i in s.off..s.off + s.len {
                        self.elem_access(&s.arr, i, || elem_name(&args[1], i), false);
                    }
                    more.extend(lock(&s.arr)[s.off..s.off + s.len].iter().cloned());
                }
                let len = match &base {
                    Value::Slice(s) => s.len,
                    _ => 0,
                };
                if len + more.len() > MAX_LEN {
                    return Err(too_long("slice", len + more.len()));
                }
                // Room in the backing array: append writes the elements past len.
                if let Value::Slice(s) = &base
                    && s.len + more.len() <= s.cap
                {
                    for i in s.off + s.len..s.off + s.len + more.len() {
                        self.elem_access(&s.arr, i, || elem_name(&args[0], i), true);
                    }
                }
                append(base, more)
            }
            // Go 1.21's: integers and strings (the subset has no floats).
            "min" | "max" => {
                let wanted = if n == "min" {
                    std::cmp::Ordering::Less
                } else {
                    std::cmp::Ordering::Greater
                };
                let mut best = ev(0)?;
                for a in &args[1..] {
                    let v = self.eval(a, env)?;
                    let order = match (&v, &best) {
                        (Value::Int(x), Value::Int(y)) => x.cmp(y),
                        (Value::Str(x), Value::Str(y)) => x.cmp(y),
                        _ => {
                            let (a, b) = (v.show(), best.show());
                            return Err(unsupported(format!("{n} of {a} and {b}")));
                        }
                    };
                    if order == wanted {
                        best = v;
                    }
                }
                best
            }
            // Go 1.21's: a map emptied, a slice's elements set to their zero values.
            "clear" => {
                match ev(0)? {
                    Value::Map(m, _) => {
                        self.map_access(&m, || describe(&args[0]), true);
                        lock(&m).clear();
                    }
                    Value::Slice(sl) => {
                        for i in sl.off..sl.off + sl.len {
                            self.elem_access(&sl.arr, i, || elem_name(&args[0], i), true);
                            let z = zero_like(&lock(&sl.arr)[i]);
                            lock(&sl.arr)[i] = z;
                        }
                    }
                    Value::Nil => {}
                    o => return Err(unsupported(format!("clear of {}", o.show()))),
                }
                Value::Nil
            }
            // `copy(dst, src)`: min(len(dst), len(src)) elements, read then written.
            "copy" => {
                let (dst, src) = (ev(0)?, ev(1)?);
                let Value::Slice(d) = dst else {
                    return Err(unsupported(format!("copy into {}", dst.show())));
                };
                let vals: Vec<Value> = match &src {
                    Value::Slice(sl) => (sl.off..sl.off + sl.len.min(d.len))
                        .map(|i| {
                            self.elem_access(&sl.arr, i, || elem_name(&args[1], i), false);
                            // No lock held while the copy reads the element's parts.
                            let v = lock(&sl.arr)[i].clone();
                            v.copy_by(self)
                        })
                        .collect(),
                    Value::Str(st) => st
                        .bytes()
                        .take(d.len)
                        .map(|b| Value::Int(b as i64))
                        .collect(),
                    Value::Nil => Vec::new(),
                    o => return Err(unsupported(format!("copy from {}", o.show()))),
                };
                for (k, v) in vals.iter().enumerate() {
                    let i = d.off + k;
                    self.elem_access(&d.arr, i, || elem_name(&args[0], i), true);
                    lock(&d.arr)[i] = v.clone();
                }
                Value::Int(vals.len() as i64)
            }
            "close" | "delete" | "panic" | "print" | "println" => {
                let vs: Vec<Value> = (0..args.len()).map(ev).collect::<R<_>>()?;
                self.builtin_statement(n, &vs)?
            }
            "new" => {
                let t = self.type_arg(&args[0])?;
                Value::Ptr(cell(self.zero(&t, None, p)?))
            }
            "make" => {
                let t = self.type_arg(&args[0])?;
                let n = match args.get(1) {
                    Some(a) => int(&self.eval(a, env)?)?,
                    None => 0,
                };
                match self.underlying(&t) {
                    Type::Chan(elem) => {
                        if n < 0 {
                            return Err(rt_err("makechan: size out of range"));
                        }
                        let name = self.name_for("chan", p);
                        let c = if n == 0 && self.k().never_sent.contains(&(p.line, p.col)) {
                            self.go.done_chan(&name)
                        } else {
                            self.go.chan(&name, n as usize)
                        };
                        Value::Chan(Arc::new(KChan {
                            c: ChanImpl::Val(c),
                            elem: *elem,
                        }))
                    }
                    Type::Map(_, v) => {
                        Value::Map(Arc::new(Mutex::new(BTreeMap::new())), Arc::from(v))
                    }
                    Type::Slice(elem) => {
                        let cap = match args.get(2) {
                            Some(a) => int(&self.eval(a, env)?)?,
                            None => n,
                        };
                        let mut vs = Vec::new();
                        if n < 0 || cap < n || cap > MAX_MAKE {
                            return Err(rt_err("makeslice: len out of range"));
                        }
                        for _ in 0..cap {
                            vs.push(self.zero(&elem, None, p)?);
                        }
                        let mut s = match slice_of(vs) {
                            Value::Slice(s) => s,
                            _ => unreachable!("slice_of makes a slice"),
                        };
                        s.len = n.max(0) as usize;
                        Value::Slice(s)
                    }
                    t => return Err(unsupported(format!("cannot make {t:?}"))),
                }
            }
            _ => return Ok(None),
        }))
    }

    pub(super) fn type_arg(&self, e: &Expr) -> R<Type> {
        Ok(match &e.kind {
            E::Type(t) => t.clone(),
            E::Ident(n) => Type::Name(n.clone()),
            E::Unary("*", x) => Type::Ptr(Box::new(self.type_arg(x)?)),
            E::Sel(p, n) => match &p.kind {
                E::Ident(p) => Type::Pkg(p.clone(), n.clone()),
                _ => return Err(unsupported("not a type")),
            },
            _ => return Err(unsupported("not a type")),
        })
    }
}

/// The zero value of `v`'s type, as far as the value tells it (`clear` of a slice):
/// numbers, bools, strings, structs and arrays of them; anything else is nil.
fn zero_like(v: &Value) -> Value {
    match v {
        Value::Int(_) => Value::Int(0),
        Value::Bool(_) => Value::Bool(false),
        Value::Str(_) => Value::str(""),
        Value::Time(_) => Value::Time(ZERO_TIME),
        Value::Struct(s) => Value::Struct(Arc::new(Struct {
            ty: s.ty.clone(),
            layout: s.layout.clone(),
            fields: s.fields.iter().map(|c| cell(zero_like(&lock(c)))).collect(),
        })),
        Value::Slice(a) if a.array => {
            let xs: Vec<Value> = lock(&a.arr)[a.off..a.off + a.len]
                .iter()
                .map(zero_like)
                .collect();
            array_of(xs)
        }
        _ => Value::Nil,
    }
}
