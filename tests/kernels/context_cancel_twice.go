package main

import (
	"context"
	"sync"
)

// Two goroutines cancel one context. Go's cancel sets the error and closes Done
// under the context's mutex, so each cancel returns with Done closed and Err set;
// stalemate set the error, then closed Done in a later step, and a second cancel in
// between returned at once (found by review: an outcome loom reached that Go cannot).
func main() {
	ctx, cancel := context.WithCancel(context.Background())
	check := func(who string) {
		cancel()
		select {
		case <-ctx.Done():
		default:
			panic(who + "'s cancel returned before Done was closed")
		}
		if ctx.Err() == nil {
			panic(who + " saw Err nil after its cancel")
		}
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		check("the goroutine")
	}()
	var mu sync.Mutex // a step of main's before its cancel: the goroutine's may come first
	mu.Lock()
	mu.Unlock()
	check("main")
	wg.Wait()
}
