// context: a cancel reaches the children; a timeout cancels with DeadlineExceeded.
package main

import (
	"context"
	"time"
)

func main() {
	parent, cancel := context.WithCancel(context.Background())
	child, cancelChild := context.WithCancel(parent)
	defer cancelChild()
	go func() { // stalemate:name canceller
		cancel()
	}()
	<-child.Done()
	if child.Err() != context.Canceled {
		panic("the child is canceled with its parent")
	}
	tctx, stop := context.WithTimeout(context.Background(), time.Second)
	defer stop()
	select {
	case <-tctx.Done():
		if tctx.Err() != context.DeadlineExceeded {
			panic("a timeout cancels with DeadlineExceeded")
		}
	}
}
