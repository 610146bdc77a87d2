// Two workers each take their own lock from an array of locks, then the next one:
// in the order where both hold their first, each waits for the other's.
package main

import "sync"

const workers = 2

func main() {
	var forks [workers]sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() { // stalemate:name philosopher
			defer wg.Done()
			// buggy: every worker takes its own fork first; one must take the other first.
			forks[i].Lock()
			forks[(i+1)%workers].Lock()
			forks[(i+1)%workers].Unlock()
			forks[i].Unlock()
		}()
	}
	wg.Wait()
}
