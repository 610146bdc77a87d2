// kubernetes#71277 (2018), "pkg/util/wait PollUntil() can leak goroutines", fixed by
// PR #70277; written from the description: PollUntil hands the caller's
// stopCh to WaitFor, whose poller goroutine ends only when that channel closes. The
// callers (cache.WaitForCacheSync among them) pass channels that live much longer
// than the poll, so every PollUntil left its poller running after the condition
// held. The fix passes a child channel instead, closed when WaitFor returns (and
// when stopCh closes).
package main

import "context"

// fixed = 1: WaitFor gets a child of stopCh, cancelled when it returns (PR #70277).
const fixed = 0

// Ticks the poller sends at most, and the tick at which the condition first holds.
const ticks = 3
const trueAt = 1

func poller(done <-chan struct{}) <-chan struct{} {
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
	}()
	return ch
}

func waitFor(condition func() bool, done <-chan struct{}) {
	for range poller(done) {
		if condition() {
			return
		}
	}
}

func pollUntil(condition func() bool, stopCh <-chan struct{}) {
	if fixed == 1 {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() { // stalemate:name stop-relay
			select {
			case <-stopCh:
				cancel()
			case <-ctx.Done():
			}
		}()
		waitFor(condition, ctx.Done())
		return
	}
	// buggy: the poller ends only when the caller's stopCh closes.
	waitFor(condition, stopCh)
}

func main() {
	// The informer's stop channel: it outlives this wait.
	stopCh := make(chan struct{})
	n := 0
	pollUntil(func() bool {
		n++
		return n >= trueAt
	}, stopCh)
}
