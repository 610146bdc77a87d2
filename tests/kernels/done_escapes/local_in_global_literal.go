package main

// A local function inside a package variable's literal hides a declared one. kernel::done must see the send.

func send(c chan int) {}

var run = func() {
	done := make(chan int)
	send := func(x chan int) { x <- 1 }
	go send(done)
	<-done
}

func main() {
	run()
}
