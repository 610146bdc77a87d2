package main

import "sync"

// g1 closes d0, takes it in its first select, then waits at d1 or o1. g2's select may
// hand o1 to g1's second select, after which main's send on o1 waits for ever: a
// deadlock at wg.Wait. dpor missed it where a select between a wait and the step that
// took its place had found nobody at the channel (it would have met the taker, had
// the taker waited first): the taker is raced with the wait past such a select too.
func main() {
	o0 := make(chan int)
	o1 := make(chan int)
	d0 := make(chan struct{})
	d1 := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		close(d0)
		select {
		case o1 <- 1:
		case <-d0:
		case <-d1:
		}
		select {
		case <-d1:
		case <-o1:
		}
	}()
	go func() {
		defer wg.Done()
		select {
		case o1 <- 1:
		case <-d1:
		case <-d0:
		}
	}()
	select {
	case <-o0:
	case <-d0:
	case <-d1:
	}
	o1 <- 1
	wg.Wait()
	if len(o0) == 99 { // never runs: keeps d0 and d1 plain channels (kernel::done)
		d0 <- struct{}{}
		d1 <- struct{}{}
	}
}
