package main

import "context"

// The goroutine's cancel may come before main makes the child, which is then born
// cancelled, or after, and reaches it through the parent: either way the child's
// Done may be closed at main's select. stalemate read the parent's error outside any
// step, so no engine ran the cancel there.
func main() {
	parent, cancel := context.WithCancel(context.Background())
	go func() {
		cancel()
	}()
	child, stop := context.WithCancel(parent)
	defer stop()
	select {
	case <-child.Done():
		panic("the child was made after the cancel")
	default:
	}
}
