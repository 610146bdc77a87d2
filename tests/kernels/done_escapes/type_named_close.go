package main

// A declared type named like a builtin: close(done) converts, as in Go, and the
// conversion's value is sent on. kernel::done must see the send.

type close chan int

func main() {
	done := make(chan int)
	c := close(done)
	go func() { c <- 1 }()
	<-done
}
