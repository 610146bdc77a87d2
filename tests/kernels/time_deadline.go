// A retry loop measures its deadline with time.Since, but the result it waits for is
// sent only after the deadline: the loop gives up, and the sender is left blocked.
package main

import "time"

func main() {
	results := make(chan int)
	go func() {
		time.Sleep(2 * time.Second)
		results <- 1 // buggy: nobody receives once the caller has given up
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
