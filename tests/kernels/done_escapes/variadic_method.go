package main

// Two methods of one name, one variadic: the argument goes into a slice. kernel::done must see the send.

type A struct{}

func (A) run(c chan int) {}

type B struct{}

func (B) run(cs ...chan int) { cs[0] <- 1 }

func main() {
	done := make(chan int)
	go B{}.run(done)
	<-done
}
