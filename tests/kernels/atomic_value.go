// atomic.Value: Load is nil before the first Store, Swap returns the old value,
// CompareAndSwap swaps only an equal value, and a
// goroutine polling Load sees another's Store (no livelock).
package main

import "sync/atomic"

type config struct{ n int }

func main() {
	var v atomic.Value
	if v.Load() != nil {
		panic("nil before the first Store")
	}
	c1 := &config{1}
	v.Store(c1)
	if v.Load().(*config).n != 1 {
		panic("Load gives what was stored")
	}
	c2 := &config{2}
	if v.Swap(c2) != c1 {
		panic("Swap returns the old value")
	}
	if v.CompareAndSwap(c1, c1) || !v.CompareAndSwap(c2, c1) {
		panic("CompareAndSwap swaps an equal value only")
	}
	var flag atomic.Value
	go func() { // stalemate:name publisher
		flag.Store(true)
	}()
	for flag.Load() == nil {
	}
}
