package main

import "sync"

// g1's select waits at o0 (and d1); g2's send takes its place, a hand-off dpor never
// reverses. Had g2 waited first and main's select come then, main would have had o0
// ready beside the closed d0, taken it, and left g1 waiting for ever: a deadlock at
// wg.Wait. dpor never runs g2 waiting before main's select (found by review; the
// cause is not established: docs/dpor.md, "Not done yet").
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
