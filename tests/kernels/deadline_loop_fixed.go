// deadline_loop.go, fixed: the reply channel has room for a late reply.
package main

import "time"

func main() {
	reply := make(chan int, 1) // fixed: the late reply goes into the buffer
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
