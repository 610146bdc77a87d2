// kubernetes#14995 (2015), "pkg/util/wait Poll(), WaitFor(), etc can leak
// goroutines", fixed by PR #15014; written from the issue's description: WaitFor
// asks its WaitFunc for a channel of ticks (the poller starts a goroutine that sends
// them) and checks the condition at each tick, but it returns as soon as the
// condition holds, without draining the channel, so the poller goroutine stays
// blocked on its next send forever. The fix passes WaitFor's done channel to the
// WaitFunc, whose goroutine stops sending once done is closed.
package main

// fixed = 1: WaitFor closes a done channel the poller selects on (PR #15014).
const fixed = 0

// Ticks the poller sends at most (its timeout), and the tick at which the condition
// first holds.
const ticks = 3
const trueAt = 1

// poller is the WaitFunc: a goroutine that sends ticks, closing the channel after the
// last one.
func poller(done chan struct{}) chan struct{} {
	ch := make(chan struct{})
	go func() { // stalemate:name poller
		defer close(ch)
		for i := 0; i < ticks; i++ {
			if fixed == 1 {
				select {
				case ch <- struct{}{}:
				case <-done:
					return
				}
			} else {
				// buggy: nothing stops this send once WaitFor has returned.
				ch <- struct{}{}
			}
		}
	}()
	return ch
}

func waitFor(condition func() bool) bool {
	done := make(chan struct{})
	if fixed == 1 {
		defer close(done)
	}
	c := poller(done)
	for range c {
		if condition() {
			return true
		}
	}
	return false
}

func main() {
	n := 0
	waitFor(func() bool {
		n++
		return n >= trueAt
	})
}
