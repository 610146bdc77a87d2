package main

import "sync"

// w1's select waits at a and b; close(b) completes it. In Go, w1 may also come to
// its select after both closes and take a. A close commutes with a wait at its
// channel only where it ends that wait (deps::closes_on): close(a) found w1 gone
// from a's line, so it races with w1's select (dpor proved this kernel before).
func main() {
	res := make(chan int) // nobody receives
	start := make(chan int)
	a := make(chan struct{})
	b := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // w1
		defer wg.Done()
		select {
		case res <- 1:
		case <-a:
			panic("w1 took a")
		case <-b:
		}
	}()
	go func() {
		defer wg.Done()
		start <- 1
	}()
	<-start
	close(b)
	close(a)
	wg.Wait()
	if len(res) == 99 { // never runs: keeps a and b plain channels (kernel::done)
		a <- struct{}{}
		b <- struct{}{}
	}
}
