// A zero-value sync.Cond field whose L is set by hand, as code that keeps a Cond in its
// struct does: the waiter waits for its item and is woken.
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
		q.cond.L.Lock()
		for len(q.items) == 0 {
			q.cond.Wait()
		}
		v := q.items[0]
		q.cond.L.Unlock()
		done <- v
	}()
	q.mu.Lock()
	q.items = append(q.items, 7)
	q.mu.Unlock()
	q.cond.Signal()
	if <-done != 7 {
		panic("the waiter got the wrong item")
	}
}
