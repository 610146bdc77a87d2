//! The Go library surface a kernel may use, in one table: the packages it may import
//! and their members, and the methods and fields of library values. The parser refuses
//! other imports, the checker other members (both before anything runs), and
//! `interp::lib` implements each one listed here.

/// Each importable package by its import path, with the members a kernel may use.
pub const PACKAGES: &[(&str, &[&str])] = &[
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
            "Map",
        ],
    ),
    (
        "time",
        &[
            "Sleep",
            "After",
            "NewTimer",
            "NewTicker",
            "Tick",
            "AfterFunc",
            "Duration",
            "Now",
            "Since",
            "Until",
            "Timer",
            "Ticker",
            "Time",
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
    ("bytes", &["Buffer", "NewBufferString"]),
    (
        "strings",
        &[
            "Contains",
            "HasPrefix",
            "HasSuffix",
            "Index",
            "Count",
            "EqualFold",
            "TrimPrefix",
            "TrimSuffix",
            "Split",
            "Join",
            "Repeat",
            "ToUpper",
            "ToLower",
            "TrimSpace",
            "Fields",
            "ReplaceAll",
            "Replace",
            "Builder",
        ],
    ),
    (
        "strconv",
        &[
            "Itoa",
            "Atoi",
            "FormatInt",
            "FormatBool",
            "Quote",
            "ParseInt",
            "ParseBool",
        ],
    ),
    (
        "io",
        &[
            "EOF",
            "ErrClosedPipe",
            "ErrUnexpectedEOF",
            "ReadFull",
            "Discard",
            "Reader",
            "Writer",
            "Closer",
            "ReadCloser",
            "WriteCloser",
            "ReadWriter",
            "ReadWriteCloser",
        ],
    ),
    (
        "net",
        &["Conn", "Error", "Listener", "Addr", "Dial", "DialTimeout"],
    ),
    ("unsafe", &["Pointer"]),
    (
        "log",
        &[
            "Print", "Printf", "Println", "Fatal", "Fatalf", "Fatalln", "Panic", "Panicf",
            "Panicln",
        ],
    ),
    (
        "sync/atomic",
        &[
            "LoadPointer",
            "StorePointer",
            "SwapPointer",
            "CompareAndSwapPointer",
            "AddInt32",
            "AddInt64",
            "AddUint32",
            "AddUint64",
            "LoadInt32",
            "LoadInt64",
            "LoadUint32",
            "LoadUint64",
            "StoreInt32",
            "StoreInt64",
            "StoreUint32",
            "StoreUint64",
            "SwapInt32",
            "SwapInt64",
            "SwapUint32",
            "SwapUint64",
            "CompareAndSwapInt32",
            "CompareAndSwapInt64",
            "CompareAndSwapUint32",
            "CompareAndSwapUint64",
            "Int32",
            "Int64",
            "Uint32",
            "Uint64",
            "Bool",
            "Value",
            "Pointer",
        ],
    ),
    (
        "math/rand",
        &[
            "Intn",
            "Int31n",
            "Int63n",
            "Seed",
            "New",
            "NewSource",
            "Rand",
            "Source",
        ],
    ),
    (
        "fmt",
        &[
            "Sprintf", "Sprint", "Sprintln", "Errorf", "Printf", "Println", "Print", "Fprintf",
            "Fprint", "Fprintln",
        ],
    ),
    ("testing", &["T"]),
    // Go 1.25's `Test` and `Wait`, and Go 1.24's experimental `Run`.
    ("testing/synctest", &["Test", "Wait", "Run"]),
];

/// Whether a kernel may import `path`.
pub fn importable(path: &str) -> bool {
    PACKAGES.iter().any(|p| p.0 == path)
}

/// The import paths, for messages.
pub fn import_paths() -> Vec<&'static str> {
    PACKAGES.iter().map(|p| p.0).collect()
}

/// The library's interface types a kernel's own types may implement, with their
/// methods: a value has one of these types when its type declares every method, and
/// an interface may embed one. `net`'s are here as interfaces only (no network).
pub const INTERFACES: &[(&str, &[&str])] = &[
    ("error", &["Error"]),
    ("sync.Locker", &["Lock", "Unlock"]),
    ("io.Reader", &["Read"]),
    ("io.Writer", &["Write"]),
    ("io.Closer", &["Close"]),
    ("io.ReadCloser", &["Read", "Close"]),
    ("io.WriteCloser", &["Write", "Close"]),
    ("io.ReadWriter", &["Read", "Write"]),
    ("io.ReadWriteCloser", &["Read", "Write", "Close"]),
    (
        "net.Conn",
        &[
            "Read",
            "Write",
            "Close",
            "LocalAddr",
            "RemoteAddr",
            "SetDeadline",
            "SetReadDeadline",
            "SetWriteDeadline",
        ],
    ),
    ("net.Error", &["Error", "Timeout", "Temporary"]),
    ("net.Listener", &["Accept", "Close", "Addr"]),
    ("net.Addr", &["Network", "String"]),
];

/// The methods of library interface `name` (`io.Reader`, `error`), if it is one.
pub fn interface(name: &str) -> Option<&'static [&'static str]> {
    INTERFACES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, ms)| *ms)
}

/// The package name an import path binds (`math/rand` is `rand`).
pub fn package_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The members of the imported package named `name`.
pub fn members(name: &str) -> &'static [&'static str] {
    PACKAGES
        .iter()
        .find(|p| package_name(p.0) == name)
        .map_or(&[][..], |p| p.1)
}

/// The methods and fields of library values a kernel may use (`mu.Lock`, `t.C`,
/// `ctx.Done`, `c.L`): a selector names one of these, or a method or field the kernel
/// declares.
pub const LIB_MEMBERS: &[&str] = &[
    // sync
    "Lock",
    "Unlock",
    "RLock",
    "RUnlock",
    "RLocker",
    "Add",
    "Done",
    "Wait",
    "Do",
    "Signal",
    "Broadcast",
    "L", // time
    "Stop",
    "Reset",
    // time.Time (and Add, above)
    "Sub",
    "Before",
    "After",
    "Equal",
    "IsZero",
    "UnixNano",
    "Unix",
    // sync/atomic values (and Add, above)
    "Load",
    "Store",
    "Swap",
    "CompareAndSwap",
    // math/rand (a *rand.Rand)
    "Intn",
    "Int31n",
    "Int63n",
    "Seed",
    "C",
    // io.Discard
    "Write",
    // bytes.Buffer, strings.Builder
    "WriteString",
    "WriteByte",
    "WriteRune",
    "String",
    "Len",
    "Grow",
    // sync.Map (and Load, Store, Swap, CompareAndSwap, above)
    "LoadOrStore",
    "LoadAndDelete",
    "Delete",
    "CompareAndDelete",
    "Range",
    "Clear",
    // context, errors
    "Err",
    "Error", // testing
    "Fatal",
    "Fatalf",
    "Errorf",
    "Log",
    "Logf",
    "Helper",
    "Parallel",
    "Run",
    "Cleanup",
    "Name",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_package_has_members_and_a_distinct_name() {
        let mut names: Vec<&str> = PACKAGES.iter().map(|p| package_name(p.0)).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), PACKAGES.len());
        assert!(PACKAGES.iter().all(|p| !p.1.is_empty()));
        // Members are found by the package's name, the last element of its path.
        let rand = PACKAGES.iter().find(|p| p.0 == "math/rand").map(|p| p.1);
        assert_eq!(Some(members("rand")), rand);
        assert!(members("rand").contains(&"Intn"));
        assert!(members("math/rand").is_empty() && members("os").is_empty());
        assert!(members("atomic").contains(&"AddInt64"));
        assert!(importable("math/rand") && !importable("os"));
    }
}
