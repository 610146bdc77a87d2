package main

// A struct converted to another named struct type has that type's methods, and an
// interface holding a channel asserts to its channel type, as in Go.

type A struct{ c chan int }

type B struct{ c chan int }

func (a A) which() string { return "A" }

func (b B) which() string { return "B" }

func main() {
	b := B{c: make(chan int, 1)}
	if A(b).which() != "A" {
		panic("A(b) kept B's methods")
	}
	a := A(b)
	a.c <- 1
	if len(b.c) != 1 {
		panic("the conversion copied the channel")
	}
	var i any = make(chan struct{})
	c := i.(chan struct{})
	close(c)
	if _, ok := i.(chan int); ok {
		panic("a chan struct{} asserted to chan int")
	}
	var j any = make(chan int, 1)
	j.(chan int) <- 2
	if v := <-j.(chan int); v != 2 {
		panic("the asserted channel is another")
	}
}
