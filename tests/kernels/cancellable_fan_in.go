package main

import (
	"context"
	"sync"
)

// Go's cancellable hand-off: n workers each send in a select beside ctx.Done(), main
// receives in a select beside it, from a channel of each worker's own (shared = 0:
// one behaviour) or from one shared channel (shared = 1: n! orders of the values).
const n = 3
const shared = 0

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outs := make([]chan int, n)
	for i := range outs {
		outs[i] = make(chan int)
		if shared == 1 && i > 0 {
			outs[i] = outs[0]
		}
	}
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			select {
			case outs[i] <- i:
			case <-ctx.Done():
			}
		}(i)
	}
	for i := 0; i < n; i++ {
		select {
		case <-outs[i]:
		case <-ctx.Done():
			return
		}
	}
	wg.Wait()
}
