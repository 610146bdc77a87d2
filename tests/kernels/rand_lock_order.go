// A worker's rare random path takes two locks in the other order than main does.
package main

import (
	"math/rand"
	"sync"
)

func main() {
	var a, b sync.Mutex
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if rand.Intn(4) == 3 {
			// buggy: the rare path locks b before a
			b.Lock()
			a.Lock()
			a.Unlock()
			b.Unlock()
			return
		}
		a.Lock()
		b.Lock()
		b.Unlock()
		a.Unlock()
	}()
	a.Lock()
	b.Lock()
	b.Unlock()
	a.Unlock()
	wg.Wait()
}
