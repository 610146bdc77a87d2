package main

import (
	"sync"
	"testing"
)

func TestCounter(t *testing.T) {
	var mu sync.Mutex
	n := 0
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			v := n
			mu.Unlock()
			mu.Lock()
			n = v + 1
			mu.Unlock()
		}()
	}
	wg.Wait()
	if n != 2 {
		t.Fatalf("lost update: n = %d", n)
	}
}
