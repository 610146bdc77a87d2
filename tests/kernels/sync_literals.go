// Library values made as literals, with new, and passed by pointer.
package main

import "sync"

func inc(mu *sync.Mutex, n *int) {
	mu.Lock()
	*n = *n + 1
	mu.Unlock()
}

func main() {
	mu := &sync.Mutex{}
	wg := new(sync.WaitGroup)
	var rw sync.RWMutex
	n := 0
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			inc(mu, &n)
			rw.RLock()
			rw.RUnlock()
		}()
	}
	wg.Wait()
	if n != 2 {
		panic("lost an increment")
	}
}
