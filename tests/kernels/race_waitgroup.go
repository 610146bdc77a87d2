// A WaitGroup whose counter a goroutine takes up from zero again while main waits
// on it: Go's WaitGroup tells the race detector that an Add from zero reads, and a
// Wait writes, one address, so go test -race reports the two when nothing orders
// them ("WaitGroup is reused before previous Wait has returned" when it panics).
// `--param fixed=1` adds for both before the goroutines start.
package main

import "sync"

const fixed = 0

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	if fixed == 1 {
		wg.Add(1)
	}
	go func() { // stalemate:name first
		wg.Done()
	}()
	go func() { // stalemate:name starter
		if fixed == 0 {
			// buggy: may take the counter up from zero, unordered with main's Wait.
			wg.Add(1)
		}
		go func() { // stalemate:name second
			wg.Done()
		}()
	}()
	wg.Wait()
}
