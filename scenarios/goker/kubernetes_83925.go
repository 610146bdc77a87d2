// kubernetes#83925 (2019), "framework: Fix a goroutine leak bug in
// resource_usage_gatherer.go", written from the PR's description: the gatherer's
// StopAndSummarize starts a goroutine per worker that waits for the worker and
// then sends on a local unbuffered channel `finished`; the caller selects between
// `finished` and a timeout. When the timeout wins, the send never completes and the
// goroutine leaks. The fix gives `finished` a buffer of one.
package main

import "time"

// fixed = 1: `finished` has a one-element buffer (PR #83925).
const fixed = 0

func stopAndSummarize(workerDone chan struct{}) bool {
	buffer := 0
	if fixed == 1 {
		buffer = 1
	}
	// buggy (buffer 0): nobody receives once the timeout has won.
	finished := make(chan struct{}, buffer)
	go func() { // stalemate:name waiter
		<-workerDone
		finished <- struct{}{}
	}()
	select {
	case <-finished:
		return true
	case <-time.After(time.Minute):
		return false
	}
}

func main() {
	workerDone := make(chan struct{})
	go func() { // stalemate:name worker
		close(workerDone)
	}()
	stopAndSummarize(workerDone)
}
