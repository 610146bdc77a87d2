package main

import "sync"

// The fix: main drains every result, the channel closed once the workers are done.
func main() {
	results := make(chan int, 1)
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			results <- i
		}(i)
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	sum := 0
	for v := range results {
		sum += v
	}
	if sum != 3 {
		panic("a result was lost")
	}
}
