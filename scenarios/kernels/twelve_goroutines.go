// Twelve goroutines: eleven workers each send their number on a channel of their own
// and call wg.Done; main waits for all of them, then sums what they sent. A kernel
// loom cannot run (it allows 8 threads); dpor proves it.
package main

import "sync"

func main() {
	const workers = 11
	var wg sync.WaitGroup
	chans := make([]chan int, workers)
	for i := 0; i < workers; i++ {
		chans[i] = make(chan int, 1)
	}
	wg.Add(workers)
	for i := 0; i < workers; i++ {
		go func(i int) {
			defer wg.Done()
			chans[i] <- i + 1
		}(i)
	}
	wg.Wait()
	sum := 0
	for i := 0; i < workers; i++ {
		sum += <-chans[i]
	}
	if sum != 66 {
		panic("a worker's value was lost")
	}
}
