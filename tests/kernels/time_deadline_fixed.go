// time_deadline.go fixed: the late result has room, so its sender never blocks.
package main

import "time"

func main() {
	results := make(chan int, 1) // room for the late result
	go func() {
		time.Sleep(2 * time.Second)
		results <- 1
	}()
	start := time.Now()
	for time.Since(start) < time.Second {
		select {
		case <-results:
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}
