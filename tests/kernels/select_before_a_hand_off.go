package main

import "sync"

// g1's select waits at o0 (and d1); g2's send takes its place. Had g2 waited
// first, before main's select, main would have had o0 ready beside the closed d0,
// taken it, and left g1 waiting for ever: a deadlock at wg.Wait. Main's select, run
// before both halves, found no sender at o0: it races with g2 as a wait
// (race.rs, wait_after; dpor proved this kernel before).
func main() {
	o0 := make(chan int)
	d0 := make(chan struct{})
	d1 := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		select {
		case <-d1:
		case <-o0:
		}
	}()
	go func() {
		defer wg.Done()
		o0 <- 1
	}()
	close(d0)
	select {
	case <-d1:
	case <-d0:
	case <-o0:
	}
	wg.Wait()
	if len(o0) == 99 { // never runs: keeps d0 and d1 plain channels (kernel::done)
		d0 <- struct{}{}
		d1 <- struct{}{}
	}
}
