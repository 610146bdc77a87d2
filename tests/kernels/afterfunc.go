// time.AfterFunc as Go documents it: f runs in its own goroutine after d, unless Stop
// comes first; Stop reports whether it prevented f. Run with --time virtual.
package main

import (
	"sync"
	"time"
)

func main() {
	var mu sync.Mutex
	ran := 0
	done := make(chan bool, 1)
	t := time.AfterFunc(10*time.Millisecond, func() {
		mu.Lock()
		ran++
		mu.Unlock()
		done <- true
	})
	<-done
	if t.Stop() {
		panic("Stop after f ran must return false")
	}
	u := time.AfterFunc(time.Second, func() { panic("a stopped AfterFunc ran") })
	if !u.Stop() {
		panic("Stop before the deadline must return true")
	}
	time.Sleep(2 * time.Second)
	mu.Lock()
	if ran != 1 {
		panic("f runs once")
	}
	mu.Unlock()

	// Reset of an active AfterFunc: f runs at the new deadline, not at the old one.
	start := time.Now()
	fired := make(chan time.Duration, 1)
	w := time.AfterFunc(100*time.Millisecond, func() { fired <- time.Since(start) })
	if !w.Reset(300 * time.Millisecond) {
		panic("Reset of an active timer must return true")
	}
	if <-fired != 300*time.Millisecond {
		panic("a reset AfterFunc runs at its new deadline")
	}
}
