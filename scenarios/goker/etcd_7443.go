// etcd#7443 (fixes etcd#7283): clientv3's simpleBalancer sent address updates to
// gRPC on its notify channel from whatever goroutine called it. gRPC's lbWatcher
// goroutine is the only reader of that channel, and for each update it tears down
// the connections no longer listed, which takes each addrConn's mutex. When an
// addrConn reconnected, resetTransport called the balancer's Up while holding that
// addrConn's mutex, and Up (taking the balancer lock) pinned the address and sent
// the new list on the notify channel. If lbWatcher was at that moment tearing
// down the same addrConn (because an endpoint update had just left it out), it
// waited for the addrConn's mutex while Up waited for lbWatcher to receive: the
// stack traces in #7283 show lbWatcher in tearDown on the mutex and Up in a
// channel send. The fix serialises every notification in one goroutine of the
// balancer (updateNotifyLoop): Up and updateAddrs only record the new state and
// wake the loop, which sends to gRPC, or gives up when the balancer closes.
//
// https://github.com/etcd-io/etcd/pull/7443
// https://github.com/etcd-io/etcd/issues/7283
package main

import "sync"

// fixed = 1: Up and updateAddrs only wake updateNotifyLoop, which alone sends on
// notifyCh (PR #7443).
const fixed = 0

type balancer struct {
	mu       sync.Mutex
	addrs    []string
	pinAddr  string
	notifyCh chan []string // read by gRPC's lbWatcher
	updatec  chan struct{} // fixed: wakes updateNotifyLoop (buffer 1)
	stopc    chan struct{} // closed when the balancer closes
	donec    chan struct{} // closed when updateNotifyLoop returns
}

// notify hands gRPC the addresses it should keep connected.
func (b *balancer) notify(addrs []string) {
	if fixed == 1 {
		select {
		case b.updatec <- struct{}{}:
		default: // the loop has a wake-up pending already
		}
		return
	}
	// buggy: sends on notifyCh from the caller's goroutine, holding b.mu (and,
	// from Up, the caller's addrConn mutex).
	b.notifyCh <- addrs
}

// Up is called by gRPC when a connection comes up.
func (b *balancer) Up(addr string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pinAddr != "" {
		return // already pinned: nothing to tell gRPC
	}
	b.pinAddr = addr
	// Only the pinned address is wanted: gRPC drops the other connections.
	b.notify([]string{addr})
}

// updateAddrs is the client's SetEndpoints.
func (b *balancer) updateAddrs(eps []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.addrs = eps
	// updating notifyCh can start new connections; only do it when none is pinned.
	if b.pinAddr == "" {
		b.notify(eps)
	}
}

// updateNotifyLoop (fixed shape only) is the one sender on notifyCh.
func (b *balancer) updateNotifyLoop() {
	defer close(b.donec)
	for {
		select {
		case <-b.updatec:
		case <-b.stopc:
			return
		}
		b.mu.Lock()
		addrs := b.addrs
		if b.pinAddr != "" {
			addrs = []string{b.pinAddr}
		}
		b.mu.Unlock()
		select {
		case b.notifyCh <- addrs:
		case <-b.stopc:
			return
		}
	}
}

type addrConn struct {
	mu       sync.Mutex
	addr     string
	ready    bool
	tornDown bool
	b        *balancer
}

// resetTransport: the connection to ac.addr is re-established.
func (ac *addrConn) resetTransport() {
	ac.mu.Lock()
	defer ac.mu.Unlock()
	if ac.tornDown {
		return
	}
	ac.ready = true
	ac.b.Up(ac.addr) // gRPC tells the balancer under ac.mu
}

func (ac *addrConn) tearDown() {
	ac.mu.Lock()
	defer ac.mu.Unlock()
	ac.ready = false
	ac.tornDown = true
}

// lbWatcher is gRPC's reader of the balancer's notify channel.
func lbWatcher(notifyCh chan []string, conns map[string]*addrConn, done chan struct{}) {
	defer close(done)
	for addrs := range notifyCh {
		for addr, ac := range conns {
			keep := false
			for _, a := range addrs {
				if a == addr {
					keep = true
				}
			}
			if !keep {
				ac.tearDown()
				delete(conns, addr)
			}
		}
		// New addresses would get new addrConns here (left out).
	}
}

func main() {
	b := &balancer{
		addrs:    []string{"a", "b"},
		notifyCh: make(chan []string),
		updatec:  make(chan struct{}, 1),
		stopc:    make(chan struct{}),
		donec:    make(chan struct{}),
	}
	if fixed == 1 {
		go b.updateNotifyLoop() // stalemate:name notifyloop
	}
	// The connection to "a" went down earlier (nothing pinned now) and is
	// reconnecting while the client drops "a" from its endpoints.
	ac := &addrConn{addr: "a", b: b}
	conns := map[string]*addrConn{"a": ac}
	watcherDone := make(chan struct{})
	go lbWatcher(b.notifyCh, conns, watcherDone) // stalemate:name lbwatcher

	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // stalemate:name reconnect
		defer wg.Done()
		ac.resetTransport()
	}()

	b.updateAddrs([]string{"b"}) // SetEndpoints("b")
	wg.Wait()

	// Close: the balancer stops and closes the channel gRPC watches.
	close(b.stopc)
	if fixed == 1 {
		<-b.donec
	}
	b.mu.Lock()
	close(b.notifyCh)
	b.mu.Unlock()
	<-watcherDone
}
