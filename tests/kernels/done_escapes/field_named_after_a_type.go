package main

// A field named after a declared type, beside an embedded field with a method of the
// same name: s.Send() is E's, as in Go (the interpreter once ran C's, a send on ch).
// kernel::done must see the send on k through C's method.

type C chan int

func (c C) Send() { c <- 1 }

type E struct{ n int }

func (e E) Send() {}

type S struct {
	C chan int // a field named C, not embedded: Go promotes nothing from it
	E
}

func main() {
	ch := make(chan int)
	s := S{C: ch}
	go func() { <-s.C }()
	s.Send() // Go: E.Send
	close(ch)
	var k C = make(C, 1)
	k.Send()
}
