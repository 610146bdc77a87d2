//! Go source to the kernel's syntax tree, through tree-sitter's Go grammar.
//!
//! tree-sitter parses every Go file, so the subset is checked here, node by node:
//! anything outside it is an error at its line and column that names the construct.

use super::KernelError;
use super::ast::*;
use std::collections::BTreeMap;
use std::sync::Arc;
use tree_sitter::Node;

struct P<'a> {
    src: &'a [u8],
    /// A type declaration's type is being parsed: only there may an interface embed
    /// (`embedded` resolves the declared types).
    declaring: std::cell::Cell<bool>,
    path: &'a str,
    /// `// stalemate:name X` comments, by line.
    names: BTreeMap<u32, String>,
    /// The declared function being parsed, and how many literals it holds so far.
    outer: String,
    literals: usize,
    /// The function whose body is being parsed, and the file's name: each
    /// statement's `place`.
    current: String,
    short: &'a str,
    /// Inside a constant declaration's values: the spec's index, which `iota` is.
    iota: Option<i64>,
    /// `iota` was met since this was last cleared.
    iota_used: bool,
    /// The constants declared with `iota` so far.
    enums: Vec<String>,
    /// Every struct field name written, anonymous structs' included.
    fields: std::cell::RefCell<std::collections::BTreeSet<String>>,
    embeds: std::cell::RefCell<std::collections::BTreeSet<String>>,
}

type R<T> = Result<T, KernelError>;

fn pos(n: Node) -> Pos {
    let p = n.start_position();
    Pos {
        line: p.row as u32 + 1,
        col: p.column as u32 + 1,
    }
}

/// The named children, comments left out.
fn kids(n: Node) -> Vec<Node> {
    let mut c = n.walk();
    n.named_children(&mut c)
        .filter(|k| k.kind() != "comment")
        .collect()
}

/// The first node of a broken parse.
fn first_error(n: Node) -> Option<Node> {
    if n.is_error() || n.is_missing() {
        return Some(n);
    }
    let mut c = n.walk();
    let children: Vec<Node> = n.children(&mut c).collect();
    children
        .into_iter()
        .filter(|k| k.has_error() || k.is_missing())
        .find_map(first_error)
}

pub fn parse(path: &str, text: &str) -> R<File> {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_go::LANGUAGE.into())
        .expect("the Go grammar matches the tree-sitter version");
    let tree = parser
        .parse(text, None)
        .ok_or_else(|| KernelError::at(path, Pos::default(), "the Go parser gave up", None))?;
    let root = tree.root_node();
    let mut p = P {
        src: text.as_bytes(),
        declaring: std::cell::Cell::new(false),
        path,
        names: BTreeMap::new(),
        outer: String::new(),
        literals: 0,
        current: String::new(),
        iota: None,
        iota_used: false,
        enums: Vec::new(),
        fields: Default::default(),
        embeds: Default::default(),
        short: std::path::Path::new(path)
            .file_name()
            .and_then(|f| f.to_str())
            .unwrap_or(path),
    };
    if root.has_error() {
        let n = first_error(root).unwrap_or(root);
        let what = if n.is_missing() {
            format!("syntax error: missing `{}`", n.kind())
        } else {
            format!(
                "syntax error near `{}`",
                p.text(n).lines().next().unwrap_or("")
            )
        };
        return Err(p.err(n, what, None));
    }
    p.comments(root);
    let mut file = File {
        path: path.to_string(),
        short: p.short.to_string(),
        ..File::default()
    };
    for n in kids(root) {
        match n.kind() {
            // A kernel is a program (`package main`) or a test file of any package.
            "package_clause" => file.package = p.text(kids(n)[0]).to_string(),
            "import_declaration" => p.imports(n, &mut file)?,
            "type_declaration" => {
                for s in kids(n) {
                    if s.kind() != "type_spec" {
                        return Err(p.outside(s, "this type declaration (an alias)"));
                    }
                    let name = p.text(p.field(s, "name")?).to_string();
                    if let Some(tp) = s.child_by_field_name("type_parameters") {
                        file.generic_types.push((name.clone(), p.tparams(tp)));
                    }
                    p.declaring.set(true);
                    let ty = p.ty(p.field(s, "type")?);
                    p.declaring.set(false);
                    file.types.push((name, ty?, pos(s)));
                }
            }
            "const_declaration" => {
                if let S::Const(cs) = p.consts(n)? {
                    file.consts.extend(cs);
                }
                file.enums.append(&mut p.enums);
            }
            "var_declaration" => {
                for (names, ty, vals) in p.vars(n)? {
                    file.vars.push((names, ty, vals));
                    file.var_pos.push(pos(n));
                }
            }
            "function_declaration" => {
                let name = p.text(p.field(n, "name")?).to_string();
                let tparams = match n.child_by_field_name("type_parameters") {
                    Some(tp) => p.tparams(tp),
                    None => Vec::new(),
                };
                let mut f = p.func(n, name, None)?;
                f.tparams = tparams;
                file.funcs.push(Arc::new(f));
            }
            "method_declaration" => {
                let recv = kids(p.field(n, "receiver")?);
                let [r] = recv.as_slice() else {
                    return Err(p.outside(n, "a method without exactly one receiver"));
                };
                let var = r
                    .child_by_field_name("name")
                    .map_or("_".to_string(), |v| p.text(v).to_string());
                let t = p.field(*r, "type")?;
                let (t, ptr) = match t.kind() {
                    "pointer_type" => (kids(t)[0], true),
                    _ => (t, false),
                };
                // A generic type's method: `(p *Pool[T])` names its type parameters.
                let (tname, tparams) = match t.kind() {
                    "type_identifier" => (p.text(t).to_string(), Vec::new()),
                    "generic_type" => {
                        let base = p.text(p.field(t, "type")?).to_string();
                        let args = kids(p.field(t, "type_arguments")?)
                            .iter()
                            .map(|a| p.text(*a).to_string())
                            .collect();
                        (base, args)
                    }
                    _ => return Err(p.outside(t, "this receiver type")),
                };
                let mname = p.text(p.field(n, "name")?).to_string();
                let shown = if ptr {
                    format!("(*{tname}).{mname}")
                } else {
                    format!("{tname}.{mname}")
                };
                let mut f = p.func(n, shown, Some((var, ptr)))?;
                f.tparams = tparams;
                file.methods.push((tname, mname, Arc::new(f)));
            }
            k => return Err(p.outside(n, &format!("a top-level {k}"))),
        }
    }
    embedded(&mut file)?;
    file.fields = p.fields.take().into_iter().collect();
    file.embedded = p.embeds.take().into_iter().collect();
    Ok(file)
}

/// Marks an embedded interface's name in `Type::Interface` until `embedded` resolves it.
const EMBED: &str = "=";

/// The mark of an embedded interface `name` at `p`: `=name@line:col`.
fn embed_mark(name: &str, p: Pos) -> String {
    format!("{EMBED}{name}@{}:{}", p.line, p.col)
}

/// An embedded interface's name and where it is embedded, from its mark.
fn embed_of(mark: &str) -> Option<(&str, Pos)> {
    let (name, at) = mark.strip_prefix(EMBED)?.rsplit_once('@')?;
    let (line, col) = at.split_once(':')?;
    Some((
        name,
        Pos {
            line: line.parse().ok()?,
            col: col.parse().ok()?,
        },
    ))
}

/// Replaces each embedded interface by its methods, as Go's method sets union them:
/// a declared interface (itself resolved first) or one of the library's. Anything
/// else embedded is refused at the declaration that embeds it.
fn embedded(file: &mut File) -> R<()> {
    type Found = Result<Vec<String>, (Pos, String)>;
    fn methods(file: &File, name: &str, at: Pos, seen: &mut Vec<String>) -> Found {
        if let Some(ms) = super::library::interface(name) {
            return Ok(ms.iter().map(|m| m.to_string()).collect());
        }
        let Some((_, Type::Interface(ms), _)) = file.types.iter().find(|(n, ..)| n == name) else {
            return Err((at, format!("embedding {name}, which is not an interface")));
        };
        if seen.iter().any(|s| s == name) {
            return Err((at, format!("interface {name} embeds itself")));
        }
        seen.push(name.to_string());
        let mut out = Vec::new();
        for m in ms {
            match embed_of(m) {
                Some((e, at)) => out.extend(methods(file, e, at, seen)?),
                None => out.push(m.clone()),
            }
        }
        seen.pop();
        Ok(out)
    }
    fn resolve(file: &File, t: &Type) -> Result<Type, (Pos, String)> {
        Ok(match t {
            Type::Interface(ms) => {
                let mut out: Vec<String> = Vec::new();
                for m in ms {
                    let add = match embed_of(m) {
                        Some((e, at)) => methods(file, e, at, &mut Vec::new())?,
                        None => vec![m.clone()],
                    };
                    for a in add {
                        if !out.contains(&a) {
                            out.push(a);
                        }
                    }
                }
                Type::Interface(out)
            }
            Type::Struct(fs) => Type::Struct(
                fs.iter()
                    .map(|f| {
                        Ok(Field {
                            name: f.name.clone(),
                            ty: resolve(file, &f.ty)?,
                            embedded: f.embedded,
                        })
                    })
                    .collect::<Result<_, _>>()?,
            ),
            other => other.clone(),
        })
    }
    let mut done = Vec::new();
    for (name, t, at) in &file.types {
        let r = resolve(file, t).map_err(|(p, m)| {
            KernelError::at(
                &file.path,
                p,
                m,
                Some("an interface may embed the interfaces the kernel declares, error, io's (Reader, Writer, Closer and their unions) and net's (Conn, Error, Listener, Addr)".into()),
            )
        })?;
        done.push((name.clone(), r, *at));
    }
    file.types = done;
    Ok(())
}

impl<'a> P<'a> {
    fn text(&self, n: Node) -> &'a str {
        n.utf8_text(self.src).unwrap_or("")
    }

    fn err(&self, n: Node, message: impl Into<String>, help: Option<String>) -> KernelError {
        KernelError::at(self.path, pos(n), message, help)
    }

    fn outside(&self, n: Node, what: &str) -> KernelError {
        self.err(
            n,
            format!("{what} is outside the Go subset stalemate interprets"),
            Some("the subset is listed in docs/kernels.md, section \"The subset\"".into()),
        )
    }

    /// The texts of a node's `name` children: `a, b int` declares two.
    /// The names a spec declares (the grammar's `name` field also holds the commas).
    fn names_of(&self, n: Node) -> Vec<String> {
        let mut c = n.walk();
        n.children_by_field_name("name", &mut c)
            .filter(|x| x.is_named())
            .map(|x| self.text(x).to_string())
            .collect()
    }

    fn field<'t>(&self, n: Node<'t>, f: &str) -> R<Node<'t>> {
        n.child_by_field_name(f)
            .ok_or_else(|| self.err(n, format!("{} without its {f}", n.kind()), None))
    }

    fn comments(&mut self, n: Node) {
        if n.kind() == "comment" {
            let t = self.text(n);
            if let Some(rest) = t.strip_prefix("//").map(str::trim) {
                // `// stalemate:name X`, or the `// G1` that bug write-ups number
                // goroutines with.
                let numbered = rest.len() > 1
                    && rest.starts_with('G')
                    && rest[1..].bytes().all(|b| b.is_ascii_digit());
                if let Some(name) = rest.strip_prefix("stalemate:name") {
                    self.names.insert(pos(n).line, name.trim().to_string());
                } else if numbered {
                    self.names.insert(pos(n).line, rest.to_string());
                }
            }
            return;
        }
        let mut c = n.walk();
        let children: Vec<Node> = n.children(&mut c).collect();
        for k in children {
            self.comments(k);
        }
    }

    fn imports(&self, n: Node, file: &mut File) -> R<()> {
        let mut specs = Vec::new();
        for k in kids(n) {
            match k.kind() {
                "import_spec" => specs.push(k),
                "import_spec_list" => {
                    specs.extend(kids(k).into_iter().filter(|s| s.kind() == "import_spec"))
                }
                _ => {}
            }
        }
        for s in specs {
            if s.child_by_field_name("name").is_some() {
                return Err(self.outside(s, "a named import"));
            }
            let path = self.text(self.field(s, "path")?).trim_matches(['"', '`']);
            if !super::library::importable(path) {
                return Err(self.err(
                    s,
                    format!("import \"{path}\" is outside the subset"),
                    Some(format!(
                        "a kernel may import: {}",
                        super::library::import_paths().join(", ")
                    )),
                ));
            }
            // Known by its package name: `math/rand` is `rand`.
            let name = super::library::package_name(path);
            file.imports.push(name.to_string());
        }
        Ok(())
    }

    fn ty(&self, n: Node) -> R<Type> {
        Ok(match n.kind() {
            "type_identifier" | "identifier" => Type::Name(self.text(n).to_string()),
            "qualified_type" => Type::Pkg(
                self.text(self.field(n, "package")?).to_string(),
                self.text(self.field(n, "name")?).to_string(),
            ),
            "pointer_type" => Type::Ptr(Box::new(self.ty(kids(n)[0])?)),
            "slice_type" => Type::Slice(Box::new(self.ty(self.field(n, "element")?)?)),
            "map_type" => Type::Map(
                Box::new(self.ty(self.field(n, "key")?)?),
                Box::new(self.ty(self.field(n, "value")?)?),
            ),
            "channel_type" => Type::Chan(Box::new(self.ty(self.field(n, "value")?)?)),
            "parenthesized_type" => self.ty(kids(n)[0])?,
            "function_type" => Type::Func,
            "struct_type" => {
                let mut fields = Vec::new();
                for list in kids(n) {
                    for f in kids(list) {
                        let t = self.field(f, "type")?;
                        let ty = self.ty(t)?;
                        let names = self.names_of(f);
                        self.fields.borrow_mut().extend(names.iter().cloned());
                        if names.is_empty() {
                            // Embedded: the field is named after its type.
                            let name = match &ty {
                                Type::Name(s) | Type::Pkg(_, s) => s.clone(),
                                Type::Ptr(b) => match &**b {
                                    Type::Name(s) | Type::Pkg(_, s) => s.clone(),
                                    _ => return Err(self.outside(f, "this embedded field")),
                                },
                                _ => return Err(self.outside(f, "this embedded field")),
                            };
                            self.embeds.borrow_mut().insert(name.clone());
                            fields.push(Field {
                                name,
                                ty: ty.clone(),
                                embedded: true,
                            });
                        }
                        for name in names {
                            fields.push(Field {
                                name,
                                ty: ty.clone(),
                                embedded: false,
                            });
                        }
                    }
                }
                Type::Struct(fields)
            }
            "interface_type" => {
                let mut ms = Vec::new();
                for m in kids(n) {
                    match (m.kind(), kids(m).as_slice()) {
                        ("method_elem", _) => {
                            ms.push(self.text(self.field(m, "name")?).to_string())
                        }
                        // An embedded interface, by name: resolved once every type is
                        // known (`embedded`), marked until then.
                        ("type_elem", _) if !self.declaring.get() => {
                            return Err(self.outside(
                                m,
                                "an embedded interface outside a type declaration (declare the interface as a type)",
                            ));
                        }
                        // A constraint (`~int | ~string`, `int`): it has no methods,
                        // and type parameters are erased.
                        ("type_elem", ts)
                            if ts.len() > 1
                                || ts.iter().any(|t| t.kind() == "negated_type")
                                || ts.iter().any(|t| {
                                    matches!(self.ty(*t), Ok(Type::Name(n)) if crate::kernel::interp::is_basic(&n))
                                }) => {}
                        ("type_elem", [t]) => match self.ty(*t)? {
                            Type::Name(e) => ms.push(embed_mark(&e, pos(m))),
                            Type::Pkg(pkg, e) => ms.push(embed_mark(&format!("{pkg}.{e}"), pos(m))),
                            _ => return Err(self.outside(m, "a constraint in an interface")),
                        },
                        _ => {
                            return Err(self.outside(m, "a constraint in an interface"));
                        }
                    }
                }
                Type::Interface(ms)
            }
            "array_type" => {
                let len = self.field(n, "length")?;
                let len = match len.kind() {
                    "int_literal" => ArrayLen::N(self.int_literal(len)?),
                    "identifier" => ArrayLen::Const(self.text(len).to_string()),
                    _ => {
                        return Err(self.outside(
                            len,
                            "an array length other than an integer or a declared constant",
                        ));
                    }
                };
                Type::Array(len, Box::new(self.ty(self.field(n, "element")?)?))
            }
            "implicit_length_array_type" => Type::Array(
                ArrayLen::Implicit,
                Box::new(self.ty(self.field(n, "element")?)?),
            ),
            "generic_type" => {
                let args = self.type_args(self.field(n, "type_arguments")?)?;
                match self.ty(self.field(n, "type")?)? {
                    // Erased: an atomic.Pointer holds any pointer.
                    Type::Pkg(p, t) if p == "atomic" && t == "Pointer" => Type::Pkg(p, t),
                    Type::Name(t) => Type::Inst(t, args),
                    _ => return Err(self.outside(n, &format!("the generic type {}", self.text(n)))),
                }
            }
            k => return Err(self.outside(n, &format!("the type {k}"))),
        })
    }

    /// A type parameter list's names: `[K comparable, V any]` gives K, V.
    fn tparams(&self, n: Node) -> Vec<String> {
        kids(n).iter().flat_map(|d| self.names_of(*d)).collect()
    }

    /// A generic type's or call's type arguments (`[int, *Job]`).
    fn type_args(&self, n: Node) -> R<Vec<Type>> {
        let mut out = Vec::new();
        for e in kids(n) {
            let ts = if e.kind() == "type_elem" {
                kids(e)
            } else {
                vec![e]
            };
            let [t] = ts.as_slice() else {
                return Err(self.outside(e, "a union as a type argument"));
            };
            out.push(self.ty(*t)?);
        }
        Ok(out)
    }

    fn func(&mut self, n: Node, name: String, recv: Option<(String, bool)>) -> R<Func> {
        let nested = recv.is_none() && n.kind() == "func_literal";
        if !nested {
            self.outer = name.clone();
            self.literals = 0;
        }
        let mut params = Vec::new();
        let mut variadic = false;
        for d in kids(self.field(n, "parameters")?) {
            let ty = self.ty(self.field(d, "type")?)?;
            if d.kind() == "variadic_parameter_declaration" {
                variadic = true;
            }
            let names = self.names_of(d);
            if names.is_empty() {
                params.push(("_".to_string(), ty.clone()));
            }
            for nm in names {
                params.push((nm, ty.clone()));
            }
        }
        let mut named_results = Vec::new();
        if let Some(r) = n.child_by_field_name("result")
            && r.kind() == "parameter_list"
        {
            for d in kids(r) {
                let ty = self.ty(self.field(d, "type")?)?;
                let names = self.names_of(d);
                for nm in names {
                    named_results.push((nm, ty.clone()));
                }
            }
        }
        let body = match n.child_by_field_name("body") {
            Some(b) => {
                let outside = std::mem::replace(&mut self.current, name.clone());
                let body = self.block(b);
                self.current = outside;
                body?
            }
            None => return Err(self.outside(n, "a function without a body")),
        };
        Ok(Func {
            name,
            recv,
            tparams: Vec::new(),
            params,
            variadic,
            named_results,
            body,
            pos: pos(n),
        })
    }

    fn block(&mut self, n: Node) -> R<Vec<Stmt>> {
        let mut out = Vec::new();
        for k in kids(n) {
            match k.kind() {
                "statement_list" => {
                    for s in kids(k) {
                        out.push(self.stmt(s, None)?);
                    }
                }
                _ => out.push(self.stmt(k, None)?),
            }
        }
        Ok(out)
    }

    /// The statements of a case: its named children after the first `skip`.
    fn case_body(&mut self, n: Node) -> R<(Vec<Stmt>, bool)> {
        let mut out = Vec::new();
        let mut fall = false;
        for k in kids(n) {
            if k.kind() == "statement_list" {
                for s in kids(k) {
                    if s.kind() == "fallthrough_statement" {
                        fall = true;
                    } else {
                        out.push(self.stmt(s, None)?);
                    }
                }
            }
        }
        Ok((out, fall))
    }

    fn list(&mut self, n: Option<Node>) -> R<Vec<Expr>> {
        match n {
            None => Ok(Vec::new()),
            Some(l) if l.kind() == "expression_list" => {
                kids(l).into_iter().map(|e| self.expr(e)).collect()
            }
            Some(e) => Ok(vec![self.expr(e)?]),
        }
    }

    fn idents(&self, n: Node) -> R<Vec<String>> {
        kids(n)
            .into_iter()
            .map(|e| match e.kind() {
                "identifier" | "blank_identifier" => Ok(self.text(e).to_string()),
                _ => Err(self.err(e, "non-name on the left side of :=", None)),
            })
            .collect()
    }

    /// A `const` declaration. Each spec's `iota` is its index in the block, and a spec
    /// with no values repeats the previous spec's expressions with its own `iota`.
    fn consts(&mut self, n: Node) -> R<S> {
        let mut out = Vec::new();
        let mut last: Option<Node> = None;
        let specs = kids(n).into_iter().filter(|s| s.kind() == "const_spec");
        for (i, s) in specs.enumerate() {
            let given = s.child_by_field_name("value");
            let Some(values) = given.or(last) else {
                return Err(self.outside(s, "a first constant without a value"));
            };
            last = Some(values);
            self.iota = Some(i as i64);
            self.iota_used = false;
            let vals = self.list(Some(values));
            self.iota = None;
            let vals = vals?;
            let names = self.names_of(s);
            if self.iota_used {
                self.enums.extend(names.iter().cloned());
            }
            if names.len() != vals.len() {
                return Err(self.err(
                    s,
                    format!("{} names for {} values", names.len(), vals.len()),
                    None,
                ));
            }
            out.extend(names.into_iter().zip(vals));
        }
        Ok(S::Const(out))
    }

    #[allow(clippy::type_complexity)]
    fn vars(&mut self, n: Node) -> R<Vec<(Vec<String>, Option<Type>, Vec<Expr>)>> {
        let mut specs = Vec::new();
        for k in kids(n) {
            match k.kind() {
                "var_spec" => specs.push(k),
                "var_spec_list" => specs.extend(kids(k)),
                _ => {}
            }
        }
        let mut out = Vec::new();
        for s in specs {
            let names = self.names_of(s);
            let ty = match s.child_by_field_name("type") {
                Some(t) => Some(self.ty(t)?),
                None => None,
            };
            let vals = self.list(s.child_by_field_name("value"))?;
            out.push((names, ty, vals));
        }
        Ok(out)
    }

    fn simple(&mut self, n: Option<Node>) -> R<Option<Box<Stmt>>> {
        match n {
            None => Ok(None),
            Some(s) => Ok(Some(Box::new(self.stmt(s, None)?))),
        }
    }

    /// A statement at `p` of the function being parsed.
    fn at(&self, kind: S, p: Pos) -> Stmt {
        let place = format!("{} at {}:{}", self.current, self.short, p.line);
        Stmt {
            kind,
            pos: p,
            place: super::interp::intern(&place),
        }
    }

    fn stmt(&mut self, n: Node, label: Option<String>) -> R<Stmt> {
        let p = pos(n);
        let kind = match n.kind() {
            "expression_statement" => S::Expr(self.expr(kids(n)[0])?),
            "short_var_declaration" => S::Define(
                self.idents(self.field(n, "left")?)?,
                self.list(n.child_by_field_name("right"))?,
            ),
            "assignment_statement" => S::Assign(
                self.list(n.child_by_field_name("left"))?,
                self.text(self.field(n, "operator")?).to_string(),
                self.list(n.child_by_field_name("right"))?,
            ),
            "inc_statement" => S::IncDec(self.expr(kids(n)[0])?, 1),
            "dec_statement" => S::IncDec(self.expr(kids(n)[0])?, -1),
            "var_declaration" => {
                let mut vs = self.vars(n)?;
                if vs.len() != 1 {
                    let mut block = Vec::new();
                    for (a, b, c) in vs {
                        block.push(self.at(S::Var(a, b, c), p));
                    }
                    S::Block(block)
                } else {
                    let (a, b, c) = vs.remove(0);
                    S::Var(a, b, c)
                }
            }
            "const_declaration" => self.consts(n)?,
            "send_statement" => S::Send(
                self.expr(self.field(n, "channel")?)?,
                self.expr(self.field(n, "value")?)?,
            ),
            "go_statement" => {
                let name = self
                    .names
                    .get(&p.line)
                    .or_else(|| self.names.get(&(p.line - 1)))
                    .cloned();
                S::Go(self.expr(kids(n)[0])?, name)
            }
            "defer_statement" => S::Defer(self.expr(kids(n)[0])?),
            "if_statement" => {
                let init = self.simple(n.child_by_field_name("initializer"))?;
                let cond = self.expr(self.field(n, "condition")?)?;
                let then = self.block(self.field(n, "consequence")?)?;
                let els = match n.child_by_field_name("alternative") {
                    None => None,
                    Some(a) if a.kind() == "block" => {
                        let b = S::Block(self.block(a)?);
                        Some(Box::new(self.at(b, pos(a))))
                    }
                    Some(a) => Some(Box::new(self.stmt(a, None)?)),
                };
                S::If(init, cond, then, els)
            }
            "for_statement" => {
                let body = self.block(self.field(n, "body")?)?;
                let head = kids(n).into_iter().find(|k| k.kind() != "block");
                match head {
                    None => S::For(None, None, None, body, label),
                    Some(h) if h.kind() == "for_clause" => S::For(
                        self.simple(h.child_by_field_name("initializer"))?,
                        match h.child_by_field_name("condition") {
                            Some(c) => Some(self.expr(c)?),
                            None => None,
                        },
                        self.simple(h.child_by_field_name("update"))?,
                        body,
                        label,
                    ),
                    Some(h) if h.kind() == "range_clause" => {
                        let left = self.list(h.child_by_field_name("left"))?;
                        let mut c = h.walk();
                        let define = h.children(&mut c).any(|t| t.kind() == ":=");
                        let mut it = left.into_iter();
                        S::Range(
                            it.next(),
                            it.next(),
                            define,
                            self.expr(self.field(h, "right")?)?,
                            body,
                            label,
                        )
                    }
                    Some(c) => S::For(None, Some(self.expr(c)?), None, body, label),
                }
            }
            "expression_switch_statement" => {
                let init = self.simple(n.child_by_field_name("initializer"))?;
                let tag = match n.child_by_field_name("value") {
                    Some(v) => Some(self.expr(v)?),
                    None => None,
                };
                let mut cases = Vec::new();
                for c in kids(n) {
                    let values = match c.kind() {
                        "expression_case" => self.list(c.child_by_field_name("value"))?,
                        "default_case" => Vec::new(),
                        _ => continue,
                    };
                    let (body, fallthrough) = self.case_body(c)?;
                    cases.push(SwitchCase {
                        values,
                        body,
                        fallthrough,
                    });
                }
                S::Switch(init, tag, cases, label)
            }
            // switch v := x.(type) { case A, B: ...; case nil: ...; default: ... } is
            // { tsv := x; switch { case tsv is A || tsv is B: v := tsv; ... } }: each
            // case's v is x's value, which is what both of Go's rules for v give.
            "type_switch_statement" => {
                let mut block = Vec::new();
                if let Some(init) = self.simple(n.child_by_field_name("initializer"))? {
                    block.push(*init);
                }
                let hidden = "type switch value".to_string();
                let value = self.expr(self.field(n, "value")?)?;
                block.push(self.at(S::Define(vec![hidden.clone()], vec![value]), p));
                let alias = match n.child_by_field_name("alias") {
                    Some(a) => self.idents(a)?.into_iter().next(),
                    None => None,
                };
                let var = Expr {
                    kind: E::Ident(hidden.clone()),
                    pos: p,
                };
                let mut cases = Vec::new();
                for c in kids(n) {
                    let mut values = Vec::new();
                    match c.kind() {
                        "type_case" => {
                            let mut cur = c.walk();
                            let types: Vec<Node> = c
                                .children_by_field_name("type", &mut cur)
                                .filter(|t| t.is_named())
                                .collect();
                            for t in types {
                                let kind = if self.text(t) == "nil" {
                                    E::Binary(
                                        "==".into(),
                                        Box::new(var.clone()),
                                        Box::new(Expr {
                                            kind: E::Nil,
                                            pos: pos(t),
                                        }),
                                    )
                                } else {
                                    E::Is(Box::new(var.clone()), self.ty(t)?)
                                };
                                values.push(Expr { kind, pos: pos(t) });
                            }
                        }
                        "default_case" => {}
                        _ => continue,
                    }
                    // Every case is one condition: `tsv is A || tsv is B`.
                    let cond = values.into_iter().reduce(|a, b| Expr {
                        pos: a.pos,
                        kind: E::Binary("||".into(), Box::new(a), Box::new(b)),
                    });
                    let (mut body, fallthrough) = self.case_body(c)?;
                    if let Some(v) = &alias {
                        body.insert(
                            0,
                            self.at(S::Define(vec![v.clone()], vec![var.clone()]), pos(c)),
                        );
                    }
                    cases.push(SwitchCase {
                        values: cond.into_iter().collect(),
                        body,
                        fallthrough,
                    });
                }
                block.push(self.at(S::Switch(None, None, cases, label), p));
                S::Block(block)
            }
            "select_statement" => {
                let mut cases = Vec::new();
                for c in kids(n) {
                    let comm = match c.kind() {
                        "default_case" => None,
                        "communication_case" => {
                            let m = self.field(c, "communication")?;
                            Some(match m.kind() {
                                "send_statement" => Comm::Send(
                                    self.expr(self.field(m, "channel")?)?,
                                    self.expr(self.field(m, "value")?)?,
                                ),
                                _ => {
                                    let left = self.list(m.child_by_field_name("left"))?;
                                    let mut cur = m.walk();
                                    let define = m.children(&mut cur).any(|t| t.kind() == ":=");
                                    let right = self.field(m, "right")?;
                                    let ch = match right.kind() {
                                        "unary_expression"
                                            if self.text(self.field(right, "operator")?)
                                                == "<-" =>
                                        {
                                            self.expr(self.field(right, "operand")?)?
                                        }
                                        _ => return Err(self.outside(right, "this select case")),
                                    };
                                    Comm::Recv(left, define, ch)
                                }
                            })
                        }
                        _ => continue,
                    };
                    let (body, _) = self.case_body(c)?;
                    cases.push(SelectCase {
                        comm,
                        body,
                        pos: pos(c),
                    });
                }
                S::Select(cases, label)
            }
            "return_statement" => S::Return(self.list(kids(n).first().copied())?),
            "break_statement" => S::Break(kids(n).first().map(|l| self.text(*l).to_string())),
            "continue_statement" => S::Continue(kids(n).first().map(|l| self.text(*l).to_string())),
            "block" => S::Block(self.block(n)?),
            "empty_statement" => S::Empty,
            "labeled_statement" => {
                let l = self.text(self.field(n, "label")?).to_string();
                let inner = kids(n)
                    .into_iter()
                    .find(|k| k.kind() != "label_name")
                    .ok_or_else(|| self.err(n, "a label on nothing", None))?;
                return self.stmt(inner, Some(l));
            }
            k => {
                let what = k.trim_end_matches("_statement").replace('_', " ");
                return Err(self.outside(n, &format!("a {what} statement")));
            }
        };
        Ok(self.at(kind, p))
    }

    fn int_literal(&self, n: Node) -> R<i64> {
        let t = self.text(n).replace('_', "");
        let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
            i64::from_str_radix(h, 16)
        } else if let Some(o) = t.strip_prefix("0o") {
            i64::from_str_radix(o, 8)
        } else {
            t.parse()
        };
        v.map_err(|_| self.err(n, format!("integer {t} does not fit int64"), None))
    }

    fn expr(&mut self, n: Node) -> R<Expr> {
        let p = pos(n);
        let b = |e: Expr| Box::new(e);
        let kind = match n.kind() {
            "identifier" | "field_identifier" | "type_identifier" | "package_identifier" => {
                E::Ident(self.text(n).to_string())
            }
            "true" | "false" => E::Ident(n.kind().to_string()),
            "nil" => E::Nil,
            "int_literal" => E::Int(self.int_literal(n)?),
            "rune_literal" => {
                let t = self.text(n).trim_matches('\'');
                E::Int(unescape(t).chars().next().map_or(0, |c| c as i64))
            }
            "interpreted_string_literal" => {
                let t = self.text(n);
                E::Str(unescape(&t[1..t.len() - 1]))
            }
            "raw_string_literal" => {
                let t = self.text(n);
                E::Str(t[1..t.len() - 1].to_string())
            }
            "parenthesized_expression" => return self.expr(kids(n)[0]),
            "unary_expression" => {
                let op = match self.text(self.field(n, "operator")?) {
                    "-" => "-",
                    "!" => "!",
                    "<-" => "<-",
                    "&" => "&",
                    "*" => "*",
                    "+" => "+",
                    o => return Err(self.outside(n, &format!("the unary operator {o}"))),
                };
                E::Unary(op, b(self.expr(self.field(n, "operand")?)?))
            }
            "binary_expression" => E::Binary(
                self.text(self.field(n, "operator")?).to_string(),
                b(self.expr(self.field(n, "left")?)?),
                b(self.expr(self.field(n, "right")?)?),
            ),
            "call_expression" => {
                let mut f = self.expr(self.field(n, "function")?)?;
                if let Some(ta) = n.child_by_field_name("type_arguments") {
                    f = Expr {
                        kind: E::Inst(b(f), self.type_args(ta)?),
                        pos: p,
                    };
                }
                let mut args = Vec::new();
                let mut spread = false;
                for a in kids(self.field(n, "arguments")?) {
                    if a.kind() == "variadic_argument" {
                        spread = true;
                        args.push(self.expr(kids(a)[0])?);
                    } else {
                        args.push(self.expr(a)?);
                    }
                }
                E::Call(b(f), args, spread)
            }
            "type_conversion_expression" => E::Call(
                b(Expr {
                    kind: E::Type(self.ty(self.field(n, "type")?)?),
                    pos: p,
                }),
                vec![self.expr(self.field(n, "operand")?)?],
                false,
            ),
            "selector_expression" => E::Sel(
                b(self.expr(self.field(n, "operand")?)?),
                self.text(self.field(n, "field")?).to_string(),
            ),
            "type_instantiation_expression" => {
                let f = self.expr(self.field(n, "type")?)?;
                let mut args = Vec::new();
                for a in kids(n).into_iter().skip(1) {
                    args.push(self.ty(a)?);
                }
                E::Inst(b(f), args)
            }
            "index_expression" => E::Index(
                b(self.expr(self.field(n, "operand")?)?),
                b(self.expr(self.field(n, "index")?)?),
            ),
            "slice_expression" => {
                if n.child_by_field_name("capacity").is_some() {
                    return Err(self.outside(n, "a three-index slice"));
                }
                let opt = |s: &mut Self, f: &str| -> R<Option<Box<Expr>>> {
                    match n.child_by_field_name(f) {
                        Some(x) => Ok(Some(Box::new(s.expr(x)?))),
                        None => Ok(None),
                    }
                };
                let lo = opt(self, "start")?;
                let hi = opt(self, "end")?;
                E::Slice(b(self.expr(self.field(n, "operand")?)?), lo, hi)
            }
            "composite_literal" => {
                let ty = self.ty(self.field(n, "type")?)?;
                return self.literal(ty, self.field(n, "body")?, p);
            }
            "func_literal" => {
                self.literals += 1;
                let name = format!("{}.func{}", self.outer, self.literals);
                E::Func(Arc::new(self.func(n, name, None)?))
            }
            "type_assertion_expression" => E::Assert(
                b(self.expr(self.field(n, "operand")?)?),
                self.ty(self.field(n, "type")?)?,
            ),
            "channel_type" | "map_type" | "slice_type" | "pointer_type" | "struct_type"
            | "qualified_type" | "interface_type" | "function_type" => E::Type(self.ty(n)?),
            "iota" => match self.iota {
                Some(i) => {
                    self.iota_used = true;
                    E::Int(i)
                }
                None => return Err(self.err(n, "iota outside a constant declaration", None)),
            },
            "float_literal" | "imaginary_literal" => {
                return Err(self.outside(n, "a floating-point number"));
            }
            k => return Err(self.outside(n, &format!("the expression {k}"))),
        };
        Ok(Expr { kind, pos: p })
    }

    /// A composite literal's body; nested bodies take the element type.
    fn literal(&mut self, ty: Type, body: Node, p: Pos) -> R<Expr> {
        let elem = match &ty {
            Type::Slice(e) => Some((**e).clone()),
            Type::Map(_, v) => Some((**v).clone()),
            _ => None,
        };
        let mut elems = Vec::new();
        for k in kids(body) {
            match k.kind() {
                "keyed_element" => {
                    let key = self.element(self.field(k, "key")?, None)?;
                    let val = self.element(self.field(k, "value")?, elem.clone())?;
                    elems.push((Some(key), val));
                }
                _ => elems.push((None, self.element(k, elem.clone())?)),
            }
        }
        Ok(Expr {
            kind: E::Composite(ty, elems),
            pos: p,
        })
    }

    fn element(&mut self, n: Node, elem: Option<Type>) -> R<Expr> {
        let inner = if n.kind() == "literal_element" {
            kids(n)[0]
        } else {
            n
        };
        if inner.kind() == "literal_value" {
            let ty = elem.ok_or_else(|| self.outside(inner, "an untyped nested literal here"))?;
            // `[]*T{{...}}` means `&T{...}`.
            if let Type::Ptr(t) = ty {
                let e = self.literal(*t, inner, pos(inner))?;
                return Ok(Expr {
                    kind: E::Unary("&", Box::new(e)),
                    pos: pos(inner),
                });
            }
            return self.literal(ty, inner, pos(inner));
        }
        self.expr(inner)
    }
}

/// Go's escapes in a string or rune literal.
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('\\') => out.push('\\'),
            Some('"') => out.push('"'),
            Some('\'') => out.push('\''),
            Some(o) => {
                out.push('\\');
                out.push(o);
            }
            None => out.push('\\'),
        }
    }
    out
}
