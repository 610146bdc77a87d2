// A cache filled by two goroutines without its lock: concurrent map writes, which
// Go's race detector reports (and Go's runtime may stop with "concurrent map
// writes").
package main

import "sync"

type cache struct {
	mu    sync.Mutex
	items map[string]int
}

func (c *cache) put(k string, v int) {
	// buggy: c.mu is not taken.
	c.items[k] = v
}

func main() {
	c := &cache{items: map[string]int{}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // stalemate:name filler
		defer wg.Done()
		c.put("a", 1)
	}()
	go func() { // stalemate:name refresher
		defer wg.Done()
		c.put("b", 2)
	}()
	wg.Wait()
}
