package main

// A package variable named close: a call of it is no close. kernel::done must see the send.

var close = func(c chan int) { c <- 1 }

func main() {
	done := make(chan int)
	go close(done)
	<-done
}
