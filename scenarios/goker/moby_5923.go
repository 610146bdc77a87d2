// moby#5923 (2014, docker), fixed by PR #5955 ("use buffered channel so goroutine
// does not get blocked on done <- true when a timeout occurs"), written from the
// PR's description: an operation runs in a goroutine that reports on an unbuffered
// `done`, and the caller waits for `done` or a timeout. After a timeout nobody
// receives, and the goroutine blocks on `done <- true` forever. The fix buffers
// `done`.
package main

import "time"

// fixed = 1: `done` has a one-element buffer (PR #5955).
const fixed = 0

// Operations, each with its own timeout.
const operations = 1

func withTimeout(op func()) bool {
	buffer := 0
	if fixed == 1 {
		buffer = 1
	}
	// buggy (buffer 0): a timed-out caller leaves the sender blocked.
	done := make(chan bool, buffer)
	go func() { // stalemate:name operation
		op()
		done <- true
	}()
	select {
	case <-done:
		return true
	case <-time.After(10 * time.Second):
		return false
	}
}

func main() {
	for i := 0; i < operations; i++ {
		withTimeout(func() {})
	}
}
