package main

// A field named Mutex, not embedded: the interpreter promotes methods through it as
// through an embedded sync.Mutex (Go would call E.fire). kernel::done must see the
// send either way.

type sig chan int

func (s sig) fire() { s <- 1 }

type E struct{}

func (E) fire() {}

type S struct {
	Mutex sig
	E
}

func main() {
	done := make(chan int)
	s := S{Mutex: sig(done)}
	go func() { <-done }()
	s.fire()
	close(done)
}
