// A correct polling loop: main polls a flag under a lock until the worker sets it.
package main

import "sync"

func main() {
	var mu sync.Mutex
	done := false
	go func() { // stalemate:name worker
		mu.Lock()
		done = true
		mu.Unlock()
	}()
	for {
		mu.Lock()
		d := done
		mu.Unlock()
		if d {
			break
		}
	}
}
