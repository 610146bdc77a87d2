// Go's compiler would refuse b.f (B has no field f); the checker lets it through, as
// some struct declares an f: the interpreter meets it at run time.
package main

type A struct{ f int }

type B struct{}

func main() {
	var b B
	_ = b.f
}
