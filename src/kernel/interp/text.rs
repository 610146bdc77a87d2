//! `strings` and `strconv`: the helpers kernels use beside their concurrency. Pure
//! functions of their arguments, so no step of their own. A slice they read (`Join`'s)
//! is read unchecked by the race detector.

use super::{R, int, rt_err, slice_of, unsupported};
use crate::kernel::value::{Value, lock};

fn s(v: &Value) -> R<String> {
    match v {
        Value::Str(s) => Ok(s.to_string()),
        o => Err(unsupported(format!("not a string: {}", o.show()))),
    }
}

fn strs(v: &Value) -> R<Vec<String>> {
    match v {
        Value::Nil => Ok(Vec::new()),
        Value::Slice(x) => lock(&x.arr)[x.off..x.off + x.len].iter().map(s).collect(),
        o => Err(unsupported(format!("not a []string: {}", o.show()))),
    }
}

fn list(xs: Vec<String>) -> Value {
    slice_of(xs.iter().map(|x| Value::str(x)).collect())
}

/// `strings.<name>(args)`.
pub(super) fn strings(name: &str, args: &[Value]) -> R<Value> {
    let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Nil);
    let two = || Ok::<_, super::Panic>((s(&arg(0))?, s(&arg(1))?));
    Ok(match name {
        "Contains" => two().map(|(a, b)| Value::Bool(a.contains(&b)))?,
        "HasPrefix" => two().map(|(a, b)| Value::Bool(a.starts_with(&b)))?,
        "HasSuffix" => two().map(|(a, b)| Value::Bool(a.ends_with(&b)))?,
        "Index" => two().map(|(a, b)| Value::Int(a.find(&b).map_or(-1, |i| i as i64)))?,
        "Count" => two().map(|(a, b)| match b.is_empty() {
            true => Value::Int(a.chars().count() as i64 + 1),
            false => Value::Int(a.matches(&b).count() as i64),
        })?,
        "EqualFold" => two().map(|(a, b)| Value::Bool(a.to_lowercase() == b.to_lowercase()))?,
        "TrimPrefix" => two().map(|(a, b)| Value::str(a.strip_prefix(&b).unwrap_or(&a)))?,
        "TrimSuffix" => two().map(|(a, b)| Value::str(a.strip_suffix(&b).unwrap_or(&a)))?,
        "Split" => {
            let (a, sep) = two()?;
            match sep.is_empty() {
                true => list(a.chars().map(String::from).collect()),
                false => list(a.split(&sep).map(String::from).collect()),
            }
        }
        "Join" => Value::str(&strs(&arg(0))?.join(&s(&arg(1))?)),
        "Repeat" => {
            let n = int(&arg(1))?;
            if n < 0 {
                return Err(rt_err("strings: negative Repeat count"));
            }
            let len = s(&arg(0))?.len().saturating_mul(n as usize);
            if len > super::MAX_LEN {
                return Err(super::too_long("string", len));
            }
            Value::str(&s(&arg(0))?.repeat(n as usize))
        }
        "ToUpper" => Value::str(&s(&arg(0))?.to_uppercase()),
        "ToLower" => Value::str(&s(&arg(0))?.to_lowercase()),
        "TrimSpace" => Value::str(s(&arg(0))?.trim()),
        "Fields" => list(s(&arg(0))?.split_whitespace().map(String::from).collect()),
        "ReplaceAll" => Value::str(&s(&arg(0))?.replace(&s(&arg(1))?, &s(&arg(2))?)),
        "Replace" => {
            let (a, old, new) = (s(&arg(0))?, s(&arg(1))?, s(&arg(2))?);
            match int(&arg(3))? {
                n if n < 0 => Value::str(&a.replace(&old, &new)),
                n => Value::str(&a.replacen(&old, &new, n as usize)),
            }
        }
        _ => return Err(unsupported(format!("strings.{name} is outside the subset"))),
    })
}

/// `strconv.<name>(args)`.
pub(super) fn strconv(name: &str, args: &[Value]) -> R<Value> {
    let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Nil);
    let syntax = |f: &str, v: &str| {
        Value::Error(format!("strconv.{f}: parsing {v:?}: invalid syntax").into())
    };
    Ok(match name {
        "Itoa" => Value::str(&int(&arg(0))?.to_string()),
        "FormatInt" => {
            let (v, base) = (int(&arg(0))?, int(&arg(1))?);
            Value::str(&format_int(v, base)?)
        }
        "FormatBool" => match arg(0) {
            Value::Bool(b) => Value::str(if b { "true" } else { "false" }),
            o => return Err(unsupported(format!("not a bool: {}", o.show()))),
        },
        "Quote" => Value::str(&format!("{:?}", s(&arg(0))?)),
        "Atoi" => {
            let v = s(&arg(0))?;
            match v.parse::<i64>() {
                Ok(n) => Value::Tuple(vec![Value::Int(n), Value::Nil]),
                Err(_) => Value::Tuple(vec![Value::Int(0), syntax("Atoi", &v)]),
            }
        }
        "ParseInt" => {
            let (v, base) = (s(&arg(0))?, int(&arg(1))?);
            let base = if base == 0 { 10 } else { base };
            if !(2..=36).contains(&base) {
                return Err(unsupported("strconv.ParseInt with a base outside 2..36"));
            }
            match i64::from_str_radix(&v, base as u32) {
                Ok(n) => Value::Tuple(vec![Value::Int(n), Value::Nil]),
                Err(_) => Value::Tuple(vec![Value::Int(0), syntax("ParseInt", &v)]),
            }
        }
        "ParseBool" => {
            let v = s(&arg(0))?;
            match v.as_str() {
                "1" | "t" | "T" | "true" | "TRUE" | "True" => {
                    Value::Tuple(vec![Value::Bool(true), Value::Nil])
                }
                "0" | "f" | "F" | "false" | "FALSE" | "False" => {
                    Value::Tuple(vec![Value::Bool(false), Value::Nil])
                }
                _ => Value::Tuple(vec![Value::Bool(false), syntax("ParseBool", &v)]),
            }
        }
        _ => return Err(unsupported(format!("strconv.{name} is outside the subset"))),
    })
}

fn format_int(v: i64, base: i64) -> R<String> {
    if !(2..=36).contains(&base) {
        return Err(rt_err("strconv: illegal AppendInt/FormatInt base"));
    }
    let mut n = v.unsigned_abs();
    if n == 0 {
        return Ok("0".into());
    }
    let mut digits = Vec::new();
    while n > 0 {
        let d = (n % base as u64) as u32;
        digits.push(std::char::from_digit(d, base as u32).unwrap_or('?'));
        n /= base as u64;
    }
    if v < 0 {
        digits.push('-');
    }
    Ok(digits.iter().rev().collect())
}
