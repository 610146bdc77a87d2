package main

import "context"

// The goroutine's cancel may come before main's Err. stalemate read the error outside
// any step, so no engine ran the cancel there.
func main() {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		cancel()
	}()
	if ctx.Err() != nil {
		panic("Err saw the cancel")
	}
}
