// A poller that runs for the life of the program, beside a fetch that gives up on
// its reply: the goroutine that would send it leaks, and nothing that still runs
// can reach its channel (Go 1.26's goroutine leak rule).
package main

import (
	"sync"
	"time"
)

var (
	mu    sync.Mutex
	polls int
)

// poll runs for the life of the program, as a wait.Until loop does.
func poll() {
	for {
		time.Sleep(10 * time.Millisecond)
		mu.Lock()
		polls++
		mu.Unlock()
	}
}

func fetch() int {
	ch := make(chan int) // buggy: no room for a reply nobody waits for
	go func() {
		ch <- 42 // buggy: blocks forever once fetch has given up
	}()
	select {
	case v := <-ch:
		return v
	case <-time.After(time.Millisecond):
		return -1
	}
}

func main() {
	go poll()
	fetch()
}
