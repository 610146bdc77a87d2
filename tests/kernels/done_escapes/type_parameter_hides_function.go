package main

// A type parameter named as a declared function: conv(c) converts. kernel::done must see the send.

func conv(d chan int) chan int { return make(chan int, 1) }

func G[conv ~chan int](c conv) {
	x := conv(c)
	x <- 1
}

func main() {
	done := make(chan int)
	go G(done)
	<-done
}
