package main

import "sync"

// From the differential campaign (fan shape, seed 20261207, its 3,005th program).
// main waits forever at a WaitGroup, a wait the explorer keeps back; a reversal found
// main's wait independent of the sequence to insert and put the sequence below it,
// and when main could not run there, the sequence was dropped with it: the second
// goroutine's try at c1 failing before the select took from c0, then the two sends
// at c0 in either order, were never run.

func main() {
	c0 := make(chan int, 1)
	c1 := make(chan int)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { <-c1 }()
	go func() {
		c0 <- 2
		c0 <- 2
	}()
	go func() {
		select {
		case c1 <- 3:
		case <-c0:
		}
	}()
	go func() {
		c1 <- 4
		select {
		case c1 <- 4:
		default:
		}
	}()
	go func() {
		select {
		case c0 <- 5:
		default:
		}
	}()
	wg.Wait()
}
