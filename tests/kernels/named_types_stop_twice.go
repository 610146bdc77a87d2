// A stop channel type whose Stop closes it: the shutdown path and the error path
// both call Stop, and the second close panics.
package main

type stopCh chan struct{}

func (s stopCh) Stop() {
	// buggy: not idempotent; a sync.Once (or a select on s) would guard it.
	close(s)
}

func main() {
	stop := make(stopCh)
	done := make(chan bool)
	go func() { // stalemate:name worker
		// The worker fails and stops everything.
		stop.Stop()
		done <- true
	}()
	stop.Stop() // shutdown
	<-done
}
