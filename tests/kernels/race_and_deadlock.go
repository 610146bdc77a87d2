// Two bugs in one program: an unguarded counter and a lock-order inversion. An
// exploration stops at the first; `stalemate check --all` (`[checks] all = true`)
// goes on and reports both, each with its replay line.
package main

import "sync"

var counter int

func main() {
	var a, b sync.Mutex
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		counter++ // buggy: no lock guards the counter
		a.Lock()
		b.Lock()
		b.Unlock()
		a.Unlock()
	}()
	go func() {
		defer wg.Done()
		counter++
		b.Lock() // buggy: the other goroutine takes a first
		a.Lock()
		a.Unlock()
		b.Unlock()
	}()
	wg.Wait()
}
