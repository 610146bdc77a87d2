// A hit counter kept with sync/atomic on one side and read or reset as a plain
// variable on the other: go test -race reports the plain access against the atomic
// one, and so does stalemate. `--param form=N` picks the plain access.
package main

import (
	"sync"
	"sync/atomic"
)

const form = 0 // 0: a plain read, 1: a plain write, 2: atomics on both sides (fixed)

var hits int64

func main() {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // stalemate:name counter
		defer wg.Done()
		atomic.AddInt64(&hits, 1)
	}()
	go func() { // stalemate:name reporter
		defer wg.Done()
		switch form {
		case 0:
			// buggy: reads the counter without atomic.LoadInt64.
			if hits > 0 {
				println("hit")
			}
		case 1:
			// buggy: resets the counter without atomic.StoreInt64.
			hits = 0
		default:
			if atomic.LoadInt64(&hits) > 0 {
				atomic.StoreInt64(&hits, 0)
			}
		}
	}()
	wg.Wait()
	// After Wait every access above happens before this plain read.
	println(hits)
}
