// istio#14611 (2019), "Pilot ADS push deadlock", fixed by PR #14635; written from
// the issue and PR text: each push takes a slot of concurrentPushLimit (a buffered
// channel, 20 in Pilot) and gives it back when done. A mutex added to guard a
// connection's push-failure bookkeeping was taken twice by the same push goroutine
// (go-deadlock: "Duplicate locking"), so that goroutine blocked forever holding its
// slot; once every slot was held, no push could start, and Pilot stopped pushing.
// The fix keeps the bookkeeping in the push goroutine's own variables, with no lock.
package main

import (
	"math/rand"
	"sync"
)

// fixed = 1: the failure bookkeeping takes no lock (PR #14635).
const fixed = 0

// Slots of concurrentPushLimit, and pushes started.
const limit = 1
const pushes = 2

type connection struct {
	mu           sync.Mutex
	lastFailures int
}

// recordFailure notes a push that timed out.
func (c *connection) recordFailure() {
	// buggy: the caller already holds c.mu.
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lastFailures++
}

func push(c *connection, slots chan struct{}, wg *sync.WaitGroup) {
	defer wg.Done()
	slots <- struct{}{}
	defer func() { <-slots }()
	if fixed == 1 {
		// The fix: the bookkeeping is this goroutine's own, no lock, no shared field.
		lastFailures := 0
		if rand.Intn(2) == 1 {
			lastFailures++
		}
		_ = lastFailures
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	// The send to the proxy may time out.
	if rand.Intn(2) == 1 {
		c.recordFailure()
	}
}

func main() {
	c := &connection{}
	slots := make(chan struct{}, limit)
	var wg sync.WaitGroup
	for i := 0; i < pushes; i++ {
		wg.Add(1)
		go push(c, slots, &wg) // stalemate:name push
	}
	wg.Wait()
}
