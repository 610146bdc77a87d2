// A flag published with sync/atomic: the writer stores the flag after writing the
// data, the reader (later, in virtual time) loads a flag and, when it reads 1, reads
// the data. Atomics order only through the variable they work on (Go's memory model:
// an atomic store is synchronised before the load that observes it), so the reader's
// load must be of the writer's flag; `--param same=0` loads another flag, and the
// data is raced (a sleep orders nothing).
package main

import (
	"sync"
	"sync/atomic"
	"time"
)

const same = 1

var (
	data   int
	ready  int32
	ready2 int32
)

func main() {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // stalemate:name writer
		defer wg.Done()
		data = 42
		atomic.StoreInt32(&ready, 1)
	}()
	go func() { // stalemate:name reader
		defer wg.Done()
		time.Sleep(time.Millisecond)
		flag := &ready
		if same == 0 {
			// buggy: loads a flag the writer never stores.
			flag = &ready2
			atomic.StoreInt32(&ready2, 1)
		}
		if atomic.LoadInt32(flag) == 1 {
			println(data)
		}
	}()
	wg.Wait()
}
