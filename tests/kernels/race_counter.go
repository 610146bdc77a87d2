// Two goroutines count into one variable with no lock: Go's race detector reports
// the unordered write and read (go test -race), and so does stalemate.
package main

import "sync"

func main() {
	count := 0
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // stalemate:name a
		defer wg.Done()
		count++
	}()
	go func() { // stalemate:name b
		defer wg.Done()
		// buggy: no lock around the increment.
		count++
	}()
	wg.Wait()
	println(count)
}
