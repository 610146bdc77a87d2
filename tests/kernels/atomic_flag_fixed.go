// atomic_flag.go fixed: the flag is checked and set in one step.
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
		if atomic.CompareAndSwapInt32(&started, 0, 1) {
			close(stop)
		}
	}
	wg.Add(2)
	go start()
	go start()
	wg.Wait()
}
