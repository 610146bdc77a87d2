// kubernetes-sigs/gateway-api-inference-extension#2571 (2026), "fix(epp): avoid
// nested RLock in PoolGet to prevent potential deadlock", written from the PR's
// description: the endpoint picker's datastore PoolGet holds ds.mu.RLock and calls
// PoolHasSynced, which read-locks ds.mu again. With a writer (PoolSet, Clear)
// waiting for Lock in between, the inner RLock waits for the writer and the writer
// for the outer RLock. The fix checks ds.pool == nil inline, under the lock held.
package main

import "sync"

// fixed = 1: PoolGet checks the pool inline (PR #2571).
const fixed = 0

type datastore struct {
	mu   sync.RWMutex
	pool *int
}

func (ds *datastore) poolHasSynced() bool {
	ds.mu.RLock()
	defer ds.mu.RUnlock()
	return ds.pool != nil
}

func (ds *datastore) poolGet() (int, bool) {
	ds.mu.RLock()
	defer ds.mu.RUnlock()
	synced := false
	if fixed == 1 {
		synced = ds.pool != nil
	} else {
		// buggy: a nested RLock.
		synced = ds.poolHasSynced()
	}
	if !synced {
		return 0, false
	}
	return *ds.pool, true
}

func (ds *datastore) poolSet(v int) {
	ds.mu.Lock()
	defer ds.mu.Unlock()
	ds.pool = &v
}

func main() {
	ds := &datastore{}
	done := make(chan bool)
	go func() { // stalemate:name reconciler
		ds.poolSet(1)
		done <- true
	}()
	ds.poolGet()
	<-done
}
