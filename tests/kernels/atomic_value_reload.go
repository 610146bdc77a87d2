// Hot reload through atomic.Value: a waiter loads the current config and waits for
// its ready channel; the reloader stores a new config and closes only the new one's
// channel. A waiter that loaded the old config first waits forever.
package main

import "sync/atomic"

type config struct {
	ready chan struct{}
}

func main() {
	var current atomic.Value
	current.Store(&config{ready: make(chan struct{})})
	done := make(chan bool)
	go func() { // stalemate:name waiter
		c := current.Load().(*config)
		<-c.ready
		done <- true
	}()
	go func() { // stalemate:name reloader
		next := &config{ready: make(chan struct{})}
		old := current.Swap(next).(*config)
		close(next.ready)
		// buggy: the old config's waiters are never released; close(old.ready) too.
		_ = old
	}()
	<-done
}
