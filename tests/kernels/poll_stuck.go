// A broken polling loop: the worker blocks forever before it sets the flag.
package main

import "sync"

func main() {
	var mu sync.Mutex
	done := false
	never := make(chan int)
	go func() { // stalemate:name worker
		<-never
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
