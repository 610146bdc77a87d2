// unsafe.Pointer as an opaque pointer: converting keeps the value (compared by
// identity), and sync/atomic's Pointer functions load, store, swap and
// compare-and-swap an unsafe.Pointer variable as one Go operation each.
package main

import (
	"sync/atomic"
	"unsafe"
)

type state struct{ gen int }

var current unsafe.Pointer

func main() {
	s1, s2 := &state{1}, &state{2}
	atomic.StorePointer(&current, unsafe.Pointer(s1))
	if (*state)(atomic.LoadPointer(&current)).gen != 1 {
		panic("LoadPointer gives what was stored")
	}
	if atomic.SwapPointer(&current, unsafe.Pointer(s2)) != unsafe.Pointer(s1) {
		panic("SwapPointer returns the old pointer")
	}
	if atomic.CompareAndSwapPointer(&current, unsafe.Pointer(s1), unsafe.Pointer(s1)) {
		panic("CompareAndSwapPointer compares by identity")
	}
	if !atomic.CompareAndSwapPointer(&current, unsafe.Pointer(s2), unsafe.Pointer(s1)) {
		panic("an equal pointer swaps")
	}
	done := make(chan bool)
	go func() { // stalemate:name publisher
		atomic.StorePointer(&current, unsafe.Pointer(&state{3}))
		done <- true
	}()
	<-done
	if (*state)(atomic.LoadPointer(&current)).gen != 3 {
		panic("the publisher's store is seen after the channel")
	}
}
