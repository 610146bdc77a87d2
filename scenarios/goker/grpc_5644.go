// grpc-go#5644 (2022), "Deadlock on grpc transport", written from the issue's
// description: the http2 client's mutex is documented "Do not access controlBuf with
// mu held", but a change (#5494) made the client call closeStream while holding mu,
// and closeStream puts a cleanup item on controlBuf, taking controlBuf's mutex. In
// parallel, another goroutine holding controlBuf's mutex (running a function on the
// buffer's behalf) waits for the client's mutex: two locks in opposite orders. The
// fix closes the stream after releasing mu.
package main

import "sync"

// fixed = 1: closeStream runs after t.mu is released.
const fixed = 0

type controlBuffer struct {
	mu    sync.Mutex
	items []int
}

// executeAndPut runs f under the buffer's mutex, then queues an item.
func (c *controlBuffer) executeAndPut(f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f()
	c.items = append(c.items, 1)
}

func (c *controlBuffer) put(item int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items = append(c.items, item)
}

type http2Client struct {
	mu      sync.Mutex // guards streams; do not access controlBuf with mu held
	streams int
	cbuf    *controlBuffer
}

func (t *http2Client) closeStream() {
	t.cbuf.put(2) // the stream's cleanup
}

// handleReset is the reader's handling of a stream reset.
func (t *http2Client) handleReset() {
	t.mu.Lock()
	t.streams--
	if fixed == 1 {
		t.mu.Unlock()
		t.closeStream()
		return
	}
	// buggy: controlBuf is accessed with t.mu held.
	t.closeStream()
	t.mu.Unlock()
}

// newStream checks the stream count on the buffer's behalf.
func (t *http2Client) newStream() {
	t.cbuf.executeAndPut(func() {
		t.mu.Lock()
		t.streams++
		t.mu.Unlock()
	})
}

func main() {
	t := &http2Client{cbuf: &controlBuffer{}, streams: 1}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // stalemate:name reader
		defer wg.Done()
		t.handleReset()
	}()
	go func() { // stalemate:name caller
		defer wg.Done()
		t.newStream()
	}()
	wg.Wait()
}
