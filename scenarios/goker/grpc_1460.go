// grpc-go#1460 (issue grpc-go#1459, "gRPC keepalive can deadlock on the client
// side"): with client keepalives on and PermitWithoutStream false, the keepalive
// goroutine goes dormant while the transport has no active stream, and NewStream
// wakes it when the first stream appears. They talk over awakenKeepalive, a
// channel of capacity 1 that is kept full ("non-writable") except while the
// keepalive goroutine is dormant: going dormant, the goroutine takes the token
// under the transport mutex, then waits for a new one (or shutdown); NewStream,
// under the same mutex, tries a non-blocking send and, if it succeeds, pings. The
// first time this works, but the token NewStream sent is consumed by the wake-up,
// so the channel is left empty: the next time the goroutine goes dormant, its
// receive to "take the token" blocks, with the transport mutex held. Every later
// NewStream (and Close) then hangs on that mutex. The merged fix, as a maintainer
// suggested in the review, refills the channel after waking the goroutine, so it
// is writable only while the goroutine is dormant.
//
// https://github.com/grpc/grpc-go/pull/1460
// https://github.com/grpc/grpc-go/issues/1459
package main

import "sync"

// fixed = 1: NewStream refills awakenKeepalive after waking the goroutine.
const fixed = 0

// Keepalive timer firings, and streams the client opens one after another.
const ticks = 3
const streams = 2

type http2Client struct {
	mu              sync.Mutex
	activeStreams   int
	awakenKeepalive chan struct{} // capacity 1, full unless keepalive is dormant
	shutdownChan    chan struct{}
	pings           int
}

func (t *http2Client) keepalive(done chan struct{}) {
	defer close(done)
	for i := 0; i < ticks; i++ {
		// The keepalive timer fires (the time itself is left out).
		t.mu.Lock()
		if t.activeStreams < 1 {
			// No stream and PermitWithoutStream is false: go dormant.
			// buggy: when the channel is already empty this blocks holding t.mu.
			<-t.awakenKeepalive // make awakenKeepalive writable
			t.mu.Unlock()
			select {
			case <-t.awakenKeepalive:
				// Woken by NewStream, which sent a ping.
			case <-t.shutdownChan:
				return
			}
		} else {
			t.pings++
			t.mu.Unlock()
		}
	}
	<-t.shutdownChan
}

func (t *http2Client) NewStream() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.activeStreams++
	if t.activeStreams == 1 {
		// The keepalive goroutine may be dormant: if so, wake it and ping.
		select {
		case t.awakenKeepalive <- struct{}{}:
			t.pings++
			if fixed == 1 {
				// Keep the channel non-writable until it goes dormant again.
				t.awakenKeepalive <- struct{}{}
			}
		default:
		}
	}
}

func (t *http2Client) CloseStream() {
	t.mu.Lock()
	t.activeStreams--
	t.mu.Unlock()
}

func (t *http2Client) Close() {
	t.mu.Lock()
	close(t.shutdownChan)
	t.mu.Unlock()
}

func main() {
	t := &http2Client{
		awakenKeepalive: make(chan struct{}, 1),
		shutdownChan:    make(chan struct{}),
	}
	t.awakenKeepalive <- struct{}{} // start non-writable
	done := make(chan struct{})
	go t.keepalive(done) // stalemate:name keepalive

	// The client makes RPCs one at a time, idle in between.
	for i := 0; i < streams; i++ {
		t.NewStream()
		t.CloseStream()
	}
	t.Close()
	<-done
}
