// kubernetes#135751 (2025), "Fix goroutine leak in pluginmanager test", fixing
// kubernetes#134939; written from the PR's description: operations each send a
// start signal on an unbuffered channel, and the test's receiver gives up at a
// timeout before every goroutine has sent; the goroutines still sending block
// forever. The fix buffers the channel for every operation.
package main

import "time"

// fixed = 1: the start channel has room for every operation's signal.
const fixed = 0

// Operations started.
const operations = 2

func main() {
	buffer := 0
	if fixed == 1 {
		buffer = operations
	}
	// buggy (buffer 0): a sender after the receiver's timeout waits forever.
	started := make(chan int, buffer)
	for i := 0; i < operations; i++ {
		go func() { // stalemate:name operation
			started <- i
		}()
	}
	timeout := time.After(time.Second)
	for seen := 0; seen < operations; seen++ {
		select {
		case <-started:
		case <-timeout:
			return // the test fails on its timeout
		}
	}
}
