// cockroach#52540 (2020), "kvserver: remove unsafe recursive RLock acquisition",
// fixing cockroach#52514; written from the PR's description: a replica's
// checkExecutionCanProceed took the read lock and then called getFreezeStart, which
// took the same read lock again. An intervening Lock() keeps new readers out until
// the first read lock is released, so the second RLock waits for the writer, which
// waits for the first RLock: deadlock. The fix reads the freeze start under the
// read lock already held.
package main

import "sync"

// fixed = 1: the freeze start is read with the read lock already held (PR #52540).
const fixed = 0

type replica struct {
	mu          sync.RWMutex
	freezeStart int
}

func (r *replica) getFreezeStart() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.freezeStart
}

func (r *replica) checkExecutionCanProceed() bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if fixed == 1 {
		return r.freezeStart == 0
	}
	// buggy: a second RLock while holding one; a writer may be waiting in between.
	return r.getFreezeStart() == 0
}

func (r *replica) freeze() {
	r.mu.Lock()
	r.freezeStart = 1
	r.mu.Unlock()
}

func main() {
	r := &replica{}
	done := make(chan bool)
	go func() { // stalemate:name merge
		r.freeze()
		done <- true
	}()
	r.checkExecutionCanProceed()
	<-done
}
