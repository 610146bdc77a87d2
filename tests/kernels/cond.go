// A Cond whose only Signal may come before the Wait: then the signal is lost.
package main

import "sync"

type queue struct {
	mu    sync.Mutex
	cond  *sync.Cond
	items []int
}

func main() {
	q := &queue{}
	q.cond = sync.NewCond(&q.mu)
	done := make(chan struct{})
	go func() { // stalemate:name consumer
		q.mu.Lock()
		for len(q.items) == 0 {
			q.cond.Wait()
		}
		q.mu.Unlock()
		close(done)
	}()
	q.cond.Signal()
	<-done
}
