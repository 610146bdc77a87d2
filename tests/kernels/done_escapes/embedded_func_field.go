package main

// An embedded field of function type called by its name, which a method shares. kernel::done must see the send.

type Sender func(c chan int)

type Outer struct {
	Sender
}

type T struct{}

func (T) Sender(c chan int) {}

func main() {
	done := make(chan int)
	o := Outer{func(x chan int) { x <- 1 }}
	go o.Sender(done)
	<-done
}
