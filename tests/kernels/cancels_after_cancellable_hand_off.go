package main

import (
	"context"
	"sync"
)

// Go's cancellable hand-off (main's send and w2's receive, each in a select beside
// two contexts' Done) and a cancellable sender nobody receives from (w1), the
// contexts cancelled in turn by main. In Go, w1 may come after both cancels and take
// ctxA's case: the rules that make the hand-off one execution (State::meets_select,
// Access::Leave) must leave that order (found by review).
func main() {
	ctxA, cancelA := context.WithCancel(context.Background())
	ctxB, cancelB := context.WithCancel(context.Background())
	out := make(chan int)
	results := make(chan int)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // w1: nobody receives results
		defer wg.Done()
		select {
		case results <- 1:
		case <-ctxA.Done():
			panic("w1 saw ctxA cancelled")
		case <-ctxB.Done():
		}
	}()
	go func() { // w2: receives main's value
		defer wg.Done()
		select {
		case <-out:
		case <-ctxA.Done():
		case <-ctxB.Done():
		}
	}()
	select {
	case out <- 1:
	case <-ctxA.Done():
	case <-ctxB.Done():
	}
	cancelB()
	cancelA()
	wg.Wait()
}
