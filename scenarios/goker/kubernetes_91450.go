// kubernetes#91450 (2020), "kube-proxy-test: fix goroutine leak", written from the
// PR's description: "the channel errch need to be buffered to prevent the goroutine
// from hanging indefinitely when the select statement reads something other than
// the one the goroutine sends on, i.e. timeouts". The test runs the proxy's
// handler in a goroutine that reports on errch, and selects between errch, the
// handler's update channel and a timeout.
package main

import "time"

// fixed = 1: errch has a one-element buffer (PR #91450).
const fixed = 0

func main() {
	buffer := 0
	if fixed == 1 {
		buffer = 1
	}
	// buggy (buffer 0): when the select takes another case, the send has no reader.
	errch := make(chan error, buffer)
	updates := make(chan int, 1)
	go func() { // stalemate:name handler
		updates <- 1
		errch <- nil
	}()
	select {
	case <-errch:
	case <-updates:
		// the update the test waited for: done
	case <-time.After(time.Second):
	}
}
