// The same queue, but the waiter waits without checking for an item first: when the
// Signal comes before its Wait, the signal is lost and the waiter sleeps forever.
package main

import "sync"

type queue struct {
	mu    sync.Mutex
	cond  sync.Cond
	items []int
}

func main() {
	q := &queue{}
	q.cond.L = &q.mu
	done := make(chan int)
	go func() {
		q.mu.Lock()
		q.cond.Wait() // buggy: no check of q.items; a Signal before this Wait is lost
		v := q.items[0]
		q.mu.Unlock()
		done <- v
	}()
	q.mu.Lock()
	q.items = append(q.items, 7)
	q.mu.Unlock()
	q.cond.Signal()
	<-done
}
