// lock_striping.go's shards guarding one total: a and b sit in different shards, so
// their goroutines hold different locks while they write the total.
package main

import (
	"sync"
	"unsafe"
)

type shard struct {
	mu sync.Mutex
}

var shards [4]shard

func shardOf(p *int) *shard {
	return &shards[uintptr(unsafe.Pointer(p))>>4%4]
}

func main() {
	a, b := new(int), new(int)
	total := 0
	var wg sync.WaitGroup
	for _, p := range []*int{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := shardOf(p)
			s.mu.Lock()
			total++ // buggy: the shard's lock guards p's counter, not the total
			s.mu.Unlock()
		}()
	}
	wg.Wait()
}
