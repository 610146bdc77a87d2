package main

// A channel returned as a ninth result, through return f(). kernel::done must see the send.

func f(c chan int) (int, int, int, int, int, int, int, int, chan int) {
	return 0, 0, 0, 0, 0, 0, 0, 0, c
}

func g(c chan int) (int, int, int, int, int, int, int, int, chan int) {
	return f(c)
}

func main() {
	done := make(chan int)
	go func() {
		_, _, _, _, _, _, _, _, x := g(done)
		x <- 1
	}()
	<-done
}
