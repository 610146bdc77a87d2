//! The library values real kernels use beside their concurrency: `bytes.Buffer` and
//! `strings.Builder` (plain memory, so concurrent use races as in Go), `sync.Map`
//! (each operation one synchronizing step), `io.ReadFull` and `fmt.Fprint*`.

use super::*;

/// The types of the text buffers: a struct with one field, the text so far.
pub(super) const BUFFER: &str = "bytes.Buffer";
pub(super) const BUILDER: &str = "strings.Builder";

/// The methods `buffer_method` implements.
const BUFFER_METHODS: &[&str] = &[
    "Write",
    "WriteString",
    "WriteByte",
    "WriteRune",
    "String",
    "Len",
    "Reset",
    "Grow",
];

pub(super) fn is_buffer(s: &Struct) -> bool {
    &*s.ty == BUFFER || &*s.ty == BUILDER
}

/// Whether a library struct of type `ty` (`io.Discard`, a text buffer) has method `m`
/// (`lib_method` implements it): for `member`, and for interface satisfaction.
pub(super) fn lib_struct_method(ty: &str, m: &str) -> bool {
    match ty {
        DISCARD => m == "Write",
        BUFFER | BUILDER => BUFFER_METHODS.contains(&m),
        _ => false,
    }
}

/// An empty buffer of type `ty`, holding `text`.
pub(super) fn buffer(ty: &str, text: &str) -> Value {
    Value::Struct(Arc::new(Struct {
        ty: Arc::from(ty),
        layout: Arc::new(Layout {
            names: vec!["buf".to_string()],
            embedded: vec![false],
        }),
        fields: vec![cell(Value::str(text))],
    }))
}

/// The text of a `[]byte` (or a string).
fn bytes_of(v: &Value) -> String {
    match v {
        Value::Str(s) => s.to_string(),
        Value::Slice(s) => {
            let bs: Vec<u8> = lock(&s.arr)[s.off..s.off + s.len]
                .iter()
                .map(|b| match b {
                    Value::Int(i) => *i as u8,
                    _ => 0,
                })
                .collect();
            String::from_utf8_lossy(&bs).into_owned()
        }
        _ => String::new(),
    }
}

impl I<'_> {
    /// A method of a `bytes.Buffer` or `strings.Builder`: a read or write of its text,
    /// checked for races as a plain field is.
    pub(super) fn buffer_method(&self, s: &Struct, m: &str, args: &[Value]) -> R<Value> {
        let c = &s.fields[0];
        let name = || format!("{}.buf", s.ty);
        let text = |c: &Cell| match &*lock(c) {
            Value::Str(t) => t.to_string(),
            _ => String::new(),
        };
        let append = |more: &str| {
            self.cell_access(c, name, true);
            let t = text(c) + more;
            if t.len() > MAX_LEN {
                return Err(too_long("string", t.len()));
            }
            *lock(c) = Value::str(&t);
            Ok(())
        };
        let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Nil);
        let wrote = |n: usize| Ok(Value::Tuple(vec![Value::Int(n as i64), Value::Nil]));
        match m {
            "WriteString" | "Write" => {
                let t = bytes_of(&arg(0));
                append(&t)?;
                let n = match arg(0) {
                    Value::Slice(s) => s.len,
                    _ => t.len(),
                };
                wrote(n)
            }
            "WriteByte" => {
                append(&bytes_of(&slice_of(vec![arg(0)])))?;
                Ok(Value::Nil)
            }
            "WriteRune" => {
                let r = char::from_u32(int(&arg(0))? as u32).unwrap_or('\u{fffd}');
                append(&r.to_string())?;
                wrote(r.len_utf8())
            }
            "String" | "Len" => {
                self.cell_access(c, name, false);
                let t = text(c);
                Ok(if m == "Len" {
                    Value::Int(t.len() as i64)
                } else {
                    Value::str(&t)
                })
            }
            "Reset" => {
                self.cell_access(c, name, true);
                *lock(c) = Value::str("");
                Ok(Value::Nil)
            }
            "Grow" => Ok(Value::Nil),
            _ => Err(unsupported(format!("{} has no method {m} here", s.ty))),
        }
    }

    /// `fmt.Fprint`, `Fprintf`, `Fprintln`: the text, written with one call of the
    /// writer's `Write` (a kernel's type, a buffer, or `io.Discard`).
    pub(super) fn fprint(&self, name: &str, args: &[Value]) -> R<Value> {
        let Some(w) = args.first() else {
            return Err(unsupported(format!("fmt.{name} without a writer")));
        };
        let rest = &args[1..];
        let text = match name {
            "Fprintf" => format_go(rest, &self.rt.ids),
            "Fprintln" => join_go(rest) + "\n",
            _ => sprint_go(rest),
        };
        let p = slice_of(text.bytes().map(|b| Value::Int(b as i64)).collect());
        let write = self.member(w, "Write")?;
        self.call(&write, vec![p])
    }

    /// `io.ReadFull(r, buf)`: `r.Read` until `buf` is full; `io.EOF` if nothing was
    /// read, `io.ErrUnexpectedEOF` if part was.
    pub(super) fn read_full(&self, args: &[Value]) -> R<Value> {
        let (r, buf) = match args {
            [r, Value::Slice(b)] => (r, b.clone()),
            _ => return Err(unsupported("io.ReadFull takes a reader and a []byte")),
        };
        let read = self.member(r, "Read")?;
        let mut n = 0;
        while n < buf.len {
            let rest = Slice {
                off: buf.off + n,
                len: buf.len - n,
                cap: buf.cap - n,
                array: false,
                arr: buf.arr.clone(),
            };
            let (got, err) = match self.call(&read, vec![Value::Slice(rest)])? {
                Value::Tuple(vs) if vs.len() == 2 => (int(&vs[0])?, vs[1].clone()),
                o => return Err(unsupported(format!("Read returned {}", o.show()))),
            };
            n += got.clamp(0, (buf.len - n) as i64) as usize;
            if !matches!(err, Value::Nil) {
                let err = match (n, err.equals(&self.rt.eof)) {
                    (0, _) | (_, Some(false) | None) => err,
                    _ if n == buf.len => Value::Nil,
                    _ => self.rt.unexpected_eof.clone(),
                };
                return Ok(Value::Tuple(vec![Value::Int(n as i64), err]));
            }
        }
        Ok(Value::Tuple(vec![Value::Int(n as i64), Value::Nil]))
    }

    /// A method of a `sync.Map`: one step on its atomic object, so each operation
    /// synchronizes with the others, as Go's memory model says of `sync.Map`.
    pub(super) fn sync_map(
        &self,
        a: &crate::go::Atomic,
        map: &Mutex<Entries>,
        m: &str,
        args: &[Value],
    ) -> R<Value> {
        let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Nil);
        let pair = |v: Option<Value>| {
            let found = v.is_some();
            Value::Tuple(vec![v.unwrap_or(Value::Nil), Value::Bool(found)])
        };
        if m == "Range" {
            // One step reads every entry: a snapshot (Go's Range need not be one).
            let all: Vec<(Value, Value)> = a.step("Range", None, false, || {
                (lock(map).values().cloned().collect(), false)
            });
            let f = arg(0);
            for (k, v) in all {
                if let Value::Bool(false) = self.call(&f, vec![k, v])? {
                    break;
                }
            }
            return Ok(Value::Nil);
        }
        if m == "Clear" {
            a.step("Clear", None, true, || {
                let mut e = lock(map);
                let had = !e.is_empty();
                e.clear();
                ((), had)
            });
            return Ok(Value::Nil);
        }
        let k = self.key_of(&arg(0))?;
        let kv = arg(0);
        let v1 = arg(1).copy_by(self);
        let get = |e: &Entries| e.get(&k).map(|x| x.1.clone());
        Ok(match m {
            "Load" => pair(a.step(m, None, false, || (get(&lock(map)), false))),
            "Store" => {
                a.step(m, None, true, || {
                    lock(map).insert(k.clone(), (kv.clone(), v1.clone()));
                    ((), true)
                });
                Value::Nil
            }
            "LoadOrStore" => {
                let (v, loaded) = a.step(m, None, false, || {
                    let mut e = lock(map);
                    match get(&e) {
                        Some(v) => ((v, true), false),
                        None => {
                            e.insert(k.clone(), (kv.clone(), v1.clone()));
                            ((v1.clone(), false), true)
                        }
                    }
                });
                Value::Tuple(vec![v, Value::Bool(loaded)])
            }
            "LoadAndDelete" | "Delete" => {
                let v = a.step(m, None, false, || {
                    let old = lock(map).remove(&k).map(|x| x.1);
                    let changed = old.is_some();
                    (old, changed)
                });
                if m == "Delete" { Value::Nil } else { pair(v) }
            }
            "Swap" => pair(a.step(m, None, false, || {
                let old = lock(map).insert(k.clone(), (kv.clone(), v1.clone()));
                (old.map(|x| x.1), true)
            })),
            "CompareAndSwap" | "CompareAndDelete" => {
                let new = arg(2).copy_by(self);
                let done = a.step(m, None, false, || {
                    let mut e = lock(map);
                    let same = get(&e).is_some_and(|v| v.equals(&v1).unwrap_or(false));
                    if same {
                        if m == "CompareAndSwap" {
                            e.insert(k.clone(), (kv.clone(), new.clone()));
                        } else {
                            e.remove(&k);
                        }
                    }
                    (same, same)
                });
                Value::Bool(done)
            }
            _ => return Err(unsupported(format!("sync.Map has no method {m} here"))),
        })
    }
}
