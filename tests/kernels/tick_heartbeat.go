// A heartbeat on time.Tick that main never stops: when main returns, the heartbeat
// goroutine still waits on its select (goleak reports it; Go's ticker never stops).
package main

import "time"

const stopped = 0

func main() {
	stop := make(chan struct{})
	go func() { // stalemate:name heartbeat
		tick := time.Tick(time.Second)
		for {
			select {
			case <-tick:
				println("beat")
			case <-stop:
				return
			}
		}
	}()
	time.Sleep(2 * time.Second)
	if stopped == 1 {
		close(stop)
	}
	// buggy (stopped = 0): returns without close(stop).
}
