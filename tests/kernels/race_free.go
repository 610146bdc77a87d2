// Plain memory that Go's operations order is race-free: a variable written before
// `go`, a field under a mutex, a slice element handed over a channel, a map written
// before wg.Done and read after wg.Wait, a value set in once.Do. Proven, with no
// data race in any interleaving; main checks every value.
package main

import "sync"

type box struct {
	mu sync.Mutex
	n  int
}

func main() {
	seed := 7 // written before the goroutines start
	b := &box{}
	buf := make([]int, 2)
	m := map[string]int{}
	ch := make(chan int)
	var wg sync.WaitGroup
	var once sync.Once
	cfg := 0
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() { // stalemate:name worker
			defer wg.Done()
			once.Do(func() { cfg = seed })
			b.mu.Lock()
			b.n += cfg
			b.mu.Unlock()
			if i == 0 {
				buf[1] = seed
				m["w"] = seed
				ch <- 1
			}
		}()
	}
	<-ch
	if buf[1] != 7 {
		panic("the element was handed over")
	}
	wg.Wait()
	if b.n != 14 || m["w"] != 7 || len(m) != 1 {
		panic("every write is seen")
	}
}
