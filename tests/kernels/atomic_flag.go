// A "started" flag checked and set in two atomic steps: both goroutines can see it
// unset, and both start the worker, which closes the same channel twice.
package main

import (
	"sync"
	"sync/atomic"
)

func main() {
	var started int32
	stop := make(chan struct{})
	var wg sync.WaitGroup
	start := func() {
		defer wg.Done()
		if atomic.LoadInt32(&started) == 0 {
			atomic.StoreInt32(&started, 1) // buggy: CompareAndSwapInt32 would make it one step
			close(stop)
		}
	}
	wg.Add(2)
	go start()
	go start()
	wg.Wait()
}
