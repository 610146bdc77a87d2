// poller_leak.go, fixed: the reply channel has room, so the late sender finishes.
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
	ch := make(chan int, 1)
	go func() {
		ch <- 42 // fixed: the buffer takes it
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
