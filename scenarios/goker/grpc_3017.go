// grpc-go#3017 (2019), "grpclb: fix deadlock in grpclb connection cache", written
// from the PR's description ("if the timer to remove a SubConn fires at the same
// time NewSubConn cancels the timer, it caused a mutex leak and deadlock") and the
// review of the cache's introduction (#1957: NewSubConn stops the removal timer;
// when Stop reports the timer already fired, the pending removal must be told not
// to delete). RemoveSubConn caches a SubConn and arms a timer whose function
// deletes it under the cache's mutex; NewSubConn of the same address takes it back
// and stops the timer. When the timer has just fired, its function is waiting for
// the mutex and finds the removal aborted: it returned there without unlocking, and
// every later call on the cache waits forever.
package main

import (
	"sync"
	"time"
)

// fixed = 1: the aborted removal unlocks before it returns (PR #3017).
const fixed = 0

type entry struct {
	timer         *time.Timer
	abortDeleting bool
}

type lbCache struct {
	mu      sync.Mutex
	entries map[string]*entry
}

// removeSubConn keeps the SubConn for a while instead of closing it at once.
func (c *lbCache) removeSubConn(addr string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := &entry{}
	e.timer = time.AfterFunc(10*time.Second, func() {
		c.mu.Lock()
		if e.abortDeleting {
			if fixed == 1 {
				c.mu.Unlock()
			}
			// buggy: returns still holding c.mu.
			return
		}
		delete(c.entries, addr)
		c.mu.Unlock()
	})
	c.entries[addr] = e
}

// newSubConn takes a cached SubConn back.
func (c *lbCache) newSubConn(addr string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[addr]; ok {
		if !e.timer.Stop() {
			// The timer fired: its function waits for c.mu; it must not delete.
			e.abortDeleting = true
		}
		delete(c.entries, addr)
	}
}

func (c *lbCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.entries {
		e.timer.Stop()
	}
}

func main() {
	c := &lbCache{entries: map[string]*entry{}}
	c.removeSubConn("10.0.0.1:443")
	c.newSubConn("10.0.0.1:443")
	c.close()
}
