// sync/atomic as Go documents it: the functions on a plain variable and the typed
// values; concurrent increments are never lost, and no access is a data race.
package main

import (
	"sync"
	"sync/atomic"
)

func main() {
	var n int64
	var hits atomic.Int32
	var done atomic.Bool
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			atomic.AddInt64(&n, 1)
			hits.Add(1)
		}()
	}
	wg.Wait()
	if atomic.LoadInt64(&n) != 2 || hits.Load() != 2 {
		panic("an atomic increment was lost")
	}
	if !atomic.CompareAndSwapInt64(&n, 2, 10) || atomic.CompareAndSwapInt64(&n, 2, 20) {
		panic("CompareAndSwap swaps only from the old value")
	}
	if atomic.SwapInt64(&n, 5) != 10 || atomic.LoadInt64(&n) != 5 {
		panic("Swap returns the old value")
	}
	atomic.StoreInt64(&n, 7)
	if n != 7 {
		panic("Store writes the variable")
	}
	if done.Load() || !done.CompareAndSwap(false, true) || !done.Load() {
		panic("atomic.Bool")
	}
}
