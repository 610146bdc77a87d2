// kubernetes#83333 (2019), "Don't leak a go routine on timeout", written from the
// PR's description: the apiserver's timeout filter runs the handler in a goroutine
// that reports on resultCh, and ServeHTTP waits for that result or for the timeout.
// When the timeout wins, ServeHTTP returns and nobody reads resultCh again: every
// timed-out request leaked the handler goroutine, blocked on its send. The fix sends
// with a select whose default logs instead.
package main

import "time"

// fixed = 1: the handler's send has a default (PR #83333).
const fixed = 0

// Requests served one after another, each with its own handler goroutine.
const requests = 1

func serveHTTP() string {
	resultCh := make(chan interface{})
	go func() { // stalemate:name handler
		var err interface{}
		// The inner handler runs here; a panic would be caught into err.
		if fixed == 1 {
			select {
			case resultCh <- err:
			default:
				// resultCh has no reader: the enclosing ServeHTTP timed out.
			}
			return
		}
		// buggy: blocks forever once ServeHTTP has stopped listening.
		resultCh <- err
	}()
	after := time.After(time.Second)
	select {
	case <-resultCh:
		return "served"
	case <-after:
		return "timeout"
	}
}

func main() {
	for r := 0; r < requests; r++ {
		serveHTTP()
	}
}
