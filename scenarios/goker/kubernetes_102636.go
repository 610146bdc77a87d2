// kubernetes#102636 (2021), "fix a potential deadlock", written from the PR's text
// and review: in the service account controller's test, the fake sync handler
// reports each call on an unbuffered channel syncCalls, and the test waits for a
// call or a timeout. When the timeout happens first, nothing receives from
// syncCalls again and the handler's goroutine leaks. The fix gives syncCalls a
// buffer of one (it carries one message).
package main

import "time"

// fixed = 1: syncCalls has a one-element buffer (PR #102636).
const fixed = 0

func main() {
	buffer := 0
	if fixed == 1 {
		buffer = 1
	}
	// buggy (buffer 0): after the timeout the handler's send has no receiver.
	syncCalls := make(chan struct{}, buffer)
	syncHandler := func() {
		syncCalls <- struct{}{}
	}
	go func() { // stalemate:name controller
		syncHandler()
	}()
	select {
	case <-syncCalls:
	case <-time.After(10 * time.Second):
		// the test reports that sync was not called
	}
}
