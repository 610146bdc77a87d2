// kubernetes#92920 (2020), "Fix deadlock in watch manager test", written from the
// PR's description: workers report failures on an unbuffered errCh, and the test's
// main goroutine first waits for every worker (wg.Wait) and only then reads errCh
// in a select. A worker that fails blocks on its send, so it never calls Done, and
// main never gets past Wait. The fix gives errCh a buffer of one per worker.
package main

import "sync"

// fixed = 1: errCh has room for every worker's error (PR #92920).
const fixed = 0

// Workers, and how many of them fail (the first ones).
const workers = 2
const failing = 1

func main() {
	buffer := 0
	if fixed == 1 {
		buffer = workers
	}
	// buggy (buffer 0): a failing worker waits for a reader that comes after Wait.
	errCh := make(chan error, buffer)
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() { // stalemate:name worker
			defer wg.Done()
			if i < failing {
				errCh <- nil // the watch did not see its object
			}
		}()
	}
	wg.Wait()
	select {
	case <-errCh:
		// the test fails with the error
	default:
	}
}
