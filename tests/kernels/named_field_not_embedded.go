package main

// A field named after a type, or after sync's types, is no embedded field: Go
// promotes nothing through it, so the selectors below find E's members.

type C struct{ x int }

func (C) which() string { return "C" }

type sig chan int

func (sig) which() string { return "sig" }

type E struct{ x int }

func (E) which() string { return "E" }

type S struct {
	C C
	E
}

type T struct {
	Mutex sig
	E
}

func main() {
	s := S{C: C{x: 2}, E: E{x: 1}}
	if s.which() != "E" {
		panic("a method promoted through a named field")
	}
	if s.x != 1 {
		panic("a field promoted through a named field")
	}
	t := T{E: E{x: 3}}
	if t.which() != "E" || t.x != 3 {
		panic("a member promoted through a field named Mutex")
	}
}
