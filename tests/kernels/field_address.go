// &s.f points at the field: stores through it change it, and sync/atomic's functions
// take a field's address as they take a variable's.
package main

import (
	"sync"
	"sync/atomic"
)

type stats struct {
	hits int64
	n    int
}

func main() {
	s := &stats{}
	p := &s.n
	*p = 4
	if s.n != 4 {
		panic("&s.n")
	}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			atomic.AddInt64(&s.hits, 1)
		}()
	}
	wg.Wait()
	if atomic.LoadInt64(&s.hits) != 2 {
		panic("atomic on a field")
	}
}
