// A lock-free buffer swap through unsafe.Pointer: the consumer loads the current
// buffer and waits for it to fill; the producer swaps in a fresh buffer before
// filling, and fills the fresh one. The consumer holding the old one waits forever.
package main

import (
	"sync/atomic"
	"unsafe"
)

type buffer struct {
	full chan struct{}
}

var current unsafe.Pointer

func main() {
	atomic.StorePointer(&current, unsafe.Pointer(&buffer{full: make(chan struct{})}))
	done := make(chan bool)
	go func() { // stalemate:name consumer
		b := (*buffer)(atomic.LoadPointer(&current))
		<-b.full
		done <- true
	}()
	go func() { // stalemate:name producer
		fresh := &buffer{full: make(chan struct{})}
		atomic.SwapPointer(&current, unsafe.Pointer(fresh))
		// buggy: fills the fresh buffer; the swapped-out one is the one readers hold.
		close(fresh.full)
	}()
	<-done
}
