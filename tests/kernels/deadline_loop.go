// A loop that waits for a reply until a deadline, polling on a timer. The reply
// comes after the deadline: the loop ends (the clock is never behind the timers that
// fired), main returns, and the late sender is left blocked forever.
package main

import "time"

func main() {
	reply := make(chan int) // buggy: no room for a reply that comes too late
	go func() {
		time.Sleep(200 * time.Millisecond)
		reply <- 1
	}()
	deadline := time.Now().Add(100 * time.Millisecond)
	for time.Now().Before(deadline) {
		select {
		case <-reply:
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
}
