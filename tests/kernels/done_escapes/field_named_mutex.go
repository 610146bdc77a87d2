package main

// A field named Mutex, not embedded: s.fire() is E's, as in Go (the interpreter once
// promoted through it as through an embedded sync.Mutex, a send on done).

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
