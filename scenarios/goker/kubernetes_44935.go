// kubernetes#44935 (2017), "apimachinery/pkg/util/wait: Fix potential goroutine
// leak in pollInternal()", written from the PR's description: Poll builds a poller
// that ticks until its timeout, and pollInternal ran WaitFor with it but never told
// the poller to stop, so when the condition held early (or failed with an error)
// the poller lived on until the timeout; in a loop of Polls with a long timeout,
// goroutines accumulate. The fix closes a done channel when pollInternal returns.
package main

// fixed = 1: pollInternal closes the poller's done channel when it returns.
const fixed = 0

// Ticks before the poller's timeout, and the tick at which the condition holds.
const ticks = 3
const trueAt = 1

func poller(done chan struct{}) chan struct{} {
	ch := make(chan struct{})
	go func() { // stalemate:name poller
		defer close(ch)
		for i := 0; i < ticks; i++ {
			select {
			case ch <- struct{}{}:
			case <-done:
				return
			}
		}
		// The timeout: the poller ends here.
	}()
	return ch
}

func pollInternal(condition func() bool) {
	done := make(chan struct{})
	if fixed == 1 {
		defer close(done)
	}
	// buggy: done is never closed, so the poller runs until its timeout.
	for range poller(done) {
		if condition() {
			return
		}
	}
}

func main() {
	n := 0
	pollInternal(func() bool {
		n++
		return n >= trueAt
	})
}
