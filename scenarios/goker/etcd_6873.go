// etcd#6873: "grpcproxy: fix deadlock on watch broadcasts stop". In etcd's gRPC
// proxy a watchBroadcasts holds the watchBroadcast instances for one range and
// runs a coalesce loop: each update notification from a broadcast (on updatec)
// makes the loop take the watchBroadcasts lock and try to merge broadcasts; the
// loop closes donec when updatec closes. stop() took the lock, stopped every
// broadcast, closed updatec and then waited on donec still holding the lock. If
// the coalesce loop had an update to handle, it waited for that lock and never
// closed donec: "Holding the WatchBroadcasts lock and waiting on donec was
// causing a deadlock with the coalesce loop" (it hung TestV3WatchSyncCancel). The
// fix releases the lock before waiting on donec.
//
// https://github.com/etcd-io/etcd/pull/6873
package main

import "sync"

// fixed = 1: stop unlocks before it waits for the coalesce loop.
const fixed = 0

// Broadcasts in the range, and update notifications each one sends.
const broadcasts = 1
const updates = 1

type watchBroadcast struct {
	id    int
	stopc chan struct{}
	donec chan struct{}
}

// run stands for the broadcast's watch goroutine: each response it forwards
// tells the watchBroadcasts that it may now be coalesced.
func (wb *watchBroadcast) run(wbs *watchBroadcasts) {
	defer close(wb.donec)
	for i := 0; i < updates; i++ {
		select {
		case <-wb.stopc:
			return
		default:
		}
		wbs.update(wb)
	}
	<-wb.stopc
}

func (wb *watchBroadcast) stop() {
	close(wb.stopc)
	<-wb.donec
}

type watchBroadcasts struct {
	mu      sync.Mutex
	bcasts  map[*watchBroadcast]struct{}
	updatec chan *watchBroadcast
	donec   chan struct{}
}

// update never blocks: one pending notification is enough.
func (wbs *watchBroadcasts) update(wb *watchBroadcast) {
	select {
	case wbs.updatec <- wb:
	default:
	}
}

func (wbs *watchBroadcasts) coalesceLoop() {
	defer close(wbs.donec)
	for wb := range wbs.updatec {
		wbs.mu.Lock()
		wbs.coalesce(wb)
		wbs.mu.Unlock()
	}
}

// coalesce would move wb's watchers to a broadcast that is at the same revision.
func (wbs *watchBroadcasts) coalesce(wb *watchBroadcast) {
	if wbs.bcasts == nil {
		return // stopped
	}
	for other := range wbs.bcasts {
		if other != wb {
			// compare revisions and move the watchers (left out)
		}
	}
}

func (wbs *watchBroadcasts) stop() {
	wbs.mu.Lock()
	for wb := range wbs.bcasts {
		wb.stop()
	}
	wbs.bcasts = nil
	close(wbs.updatec)
	if fixed == 1 {
		wbs.mu.Unlock()
		<-wbs.donec
		return
	}
	// buggy: waits for the coalesce loop while holding the lock it needs.
	<-wbs.donec
	wbs.mu.Unlock()
}

func main() {
	wbs := &watchBroadcasts{
		bcasts:  make(map[*watchBroadcast]struct{}),
		updatec: make(chan *watchBroadcast, 1),
		donec:   make(chan struct{}),
	}
	for i := 0; i < broadcasts; i++ {
		wb := &watchBroadcast{id: i, stopc: make(chan struct{}), donec: make(chan struct{})}
		wbs.bcasts[wb] = struct{}{}
		go wb.run(wbs) // stalemate:name broadcast
	}
	go wbs.coalesceLoop() // stalemate:name coalesce

	// The range's last watcher goes away: the proxy stops its broadcasts.
	wbs.stop()
}
