//! The kernel's syntax tree: the Go subset stalemate interprets, and nothing more.

use std::sync::Arc;

/// A place in the kernel file, 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    /// `int`, `string`, `error`, a type the kernel declares.
    Name(String),
    /// `sync.Mutex`, `time.Duration`, `context.Context`, `testing.T`.
    Pkg(String, String),
    Ptr(Box<Type>),
    Slice(Box<Type>),
    Map(Box<Type>, Box<Type>),
    Chan(Box<Type>),
    Struct(Vec<Field>),
    /// The method names.
    Interface(Vec<String>),
    Func,
    /// `[n]T`: a value, copied by a store like a struct.
    Array(ArrayLen, Box<Type>),
    /// A generic type with its type arguments: `Pool[T]`, `Pair[int, string]`.
    Inst(String, Vec<Type>),
}

/// An array type's length: a constant Go can evaluate where the type is written.
#[derive(Clone, Debug, PartialEq)]
pub enum ArrayLen {
    N(i64),
    /// A constant the kernel declares (a parameter, possibly).
    Const(String),
    /// `[...]T{...}`: as many as the literal has.
    Implicit,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub name: String,
    pub ty: Type,
    /// Declared without a name (`T`, `*T`, `sync.Mutex`): Go promotes its members.
    pub embedded: bool,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: E,
    pub pos: Pos,
}

#[derive(Clone, Debug)]
pub enum E {
    Ident(String),
    Int(i64),
    Str(String),
    Nil,
    /// `-x`, `!x`, `<-ch`, `&x`, `*p`.
    Unary(&'static str, Box<Expr>),
    Binary(String, Box<Expr>, Box<Expr>),
    /// The function, the arguments, and whether the last is spread (`xs...`).
    Call(Box<Expr>, Vec<Expr>, bool),
    Sel(Box<Expr>, String),
    Index(Box<Expr>, Box<Expr>),
    Slice(Box<Expr>, Option<Box<Expr>>, Option<Box<Expr>>),
    /// A composite literal: its type and elements, keyed (`name: v`, `k: v`) or not.
    Composite(Type, Vec<(Option<Expr>, Expr)>),
    Func(Arc<Func>),
    /// A type where an expression stands: `make(chan int)`, `new(T)`, `int(x)`.
    Type(Type),
    /// `x.(T)`.
    Assert(Box<Expr>, Type),
    /// Whether the value has the type: a type switch's case (`case T:`).
    Is(Box<Expr>, Type),
    /// A generic function with explicit type arguments: `NewPool[int]`.
    Inst(Box<Expr>, Vec<Type>),
}

/// A function, method or function literal.
#[derive(Debug)]
pub struct Func {
    /// As Go's tracebacks name it: `main`, `(*Mux).loop`, `main.func1`.
    pub name: String,
    /// The receiver's variable and whether it is a pointer receiver.
    pub recv: Option<(String, bool)>,
    /// Type parameters: a generic function's, or a generic type's method's (the
    /// receiver's `[T]`). Erased by instantiation (`kernel::generic`).
    pub tparams: Vec<String>,
    pub params: Vec<(String, Type)>,
    pub variadic: bool,
    /// Named results, if the results are named.
    pub named_results: Vec<(String, Type)>,
    pub body: Vec<Stmt>,
    pub pos: Pos,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: S,
    pub pos: Pos,
    /// `(*Mux).loop at mux.go:17`: what reports cite while the statement runs.
    pub place: &'static str,
}

#[derive(Clone, Debug)]
pub struct SelectCase {
    /// None: `default`.
    pub comm: Option<Comm>,
    pub body: Vec<Stmt>,
    pub pos: Pos,
}

#[derive(Clone, Debug)]
pub enum Comm {
    Send(Expr, Expr),
    /// `v, ok := <-ch` (define), `v = <-ch`, or `<-ch`: targets, define, the channel.
    Recv(Vec<Expr>, bool, Expr),
}

#[derive(Clone, Debug)]
pub struct SwitchCase {
    /// Empty: `default`.
    pub values: Vec<Expr>,
    pub body: Vec<Stmt>,
    pub fallthrough: bool,
}

#[derive(Clone, Debug)]
pub enum S {
    Expr(Expr),
    Define(Vec<String>, Vec<Expr>),
    /// Targets, the operator (`=`, `+=`, ...), values.
    Assign(Vec<Expr>, String, Vec<Expr>),
    IncDec(Expr, i64),
    Var(Vec<String>, Option<Type>, Vec<Expr>),
    Const(Vec<(String, Expr)>),
    Send(Expr, Expr),
    /// The call, and the goroutine's name from a `// stalemate:name` comment.
    Go(Expr, Option<String>),
    Defer(Expr),
    If(Option<Box<Stmt>>, Expr, Vec<Stmt>, Option<Box<Stmt>>),
    /// Init, condition, post, body, label.
    For(
        Option<Box<Stmt>>,
        Option<Expr>,
        Option<Box<Stmt>>,
        Vec<Stmt>,
        Option<String>,
    ),
    /// Key, value, define, the ranged expression, body, label.
    Range(
        Option<Expr>,
        Option<Expr>,
        bool,
        Expr,
        Vec<Stmt>,
        Option<String>,
    ),
    Switch(
        Option<Box<Stmt>>,
        Option<Expr>,
        Vec<SwitchCase>,
        Option<String>,
    ),
    Select(Vec<SelectCase>, Option<String>),
    Return(Vec<Expr>),
    Break(Option<String>),
    Continue(Option<String>),
    Block(Vec<Stmt>),
    Empty,
}

/// A whole kernel.
#[derive(Debug, Default)]
pub struct File {
    pub path: String,
    /// The package clause's name: `main`, or a test file's (`cache`, `cache_test`).
    pub package: String,
    /// The file name alone, as reports cite it (`watch_mux.go:41`).
    pub short: String,
    pub imports: Vec<String>,
    /// Declared types, with where each is declared.
    pub types: Vec<(String, Type, Pos)>,
    /// Every struct field name the file writes, anonymous structs' included.
    pub fields: Vec<String>,
    /// The names of embedded fields (a field named after its type), anonymous
    /// structs' included.
    pub embedded: Vec<String>,
    /// The type parameters of each generic type declared.
    pub generic_types: Vec<(String, Vec<String>)>,
    pub consts: Vec<(String, Expr)>,
    /// Constants whose value uses `iota`: an enumeration, not a parameter.
    pub enums: Vec<String>,
    pub vars: Vec<(Vec<String>, Option<Type>, Vec<Expr>)>,
    /// Where each of `vars` is declared.
    pub var_pos: Vec<Pos>,
    pub funcs: Vec<Arc<Func>>,
    /// Methods: receiver type name, method name, function.
    pub methods: Vec<(String, String, Arc<Func>)>,
}

/// What a value of type `t` is at run time, for a named type that is not a struct:
/// `int`, `string`, `bool`, `func`, `chan`, `slice`, `array`, `map`. A value does not
/// carry such a type's name, so its methods are found by this kind (`lookup` gives a
/// declared type). `None` for structs (their values carry their type), interfaces and
/// pointers.
pub fn value_kind(t: &Type, lookup: &dyn Fn(&str) -> Option<Type>) -> Option<&'static str> {
    let mut t = t.clone();
    for _ in 0..32 {
        t = match &t {
            Type::Name(n) => match n.as_str() {
                "string" => return Some("string"),
                "bool" => return Some("bool"),
                n if is_integer(n) => return Some("int"),
                _ => lookup(n)?,
            },
            Type::Pkg(p, n) if p == "time" && n == "Duration" => return Some("int"),
            Type::Func => return Some("func"),
            Type::Chan(_) => return Some("chan"),
            Type::Slice(_) => return Some("slice"),
            Type::Array(..) => return Some("array"),
            Type::Map(..) => return Some("map"),
            _ => return None,
        };
    }
    None
}

/// An integer type's name: every integer is an int64 here.
pub fn is_integer(n: &str) -> bool {
    matches!(
        n,
        "int"
            | "int8"
            | "int16"
            | "int32"
            | "int64"
            | "uint"
            | "uint8"
            | "uint16"
            | "uint32"
            | "uint64"
            | "byte"
            | "rune"
            | "uintptr"
    )
}
