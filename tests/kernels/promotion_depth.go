package main

// Members promoted through embedded fields: the shallowest wins, as Go's selectors
// find them (field order decided it, depth-first).

type Inner struct{ x int }

func (Inner) which() string { return "Inner" }

type A struct{ Inner }

type E struct{ x int }

func (E) which() string { return "E" }

type S struct {
	A
	E
}

func main() {
	s := S{A: A{Inner{x: 2}}, E: E{x: 1}}
	if s.which() != "E" {
		panic("a method two levels down beat one a level down")
	}
	if s.x != 1 {
		panic("a field two levels down beat one a level down")
	}
	s.x = 3
	if s.E.x != 3 || s.A.Inner.x != 2 {
		panic("the assignment went to the deeper field")
	}
	p := &s
	if p.which() != "E" || p.x != 3 {
		panic("through a pointer, the deeper member")
	}
}
