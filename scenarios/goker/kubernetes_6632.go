// kubernetes#6632 (2015) bumped the vendored spdystream to its fix for a
// write/close deadlock, written here from spdystream issue #49 and PR #50: each
// data frame is written under the write lock and then sent to resetChan (buffer
// 2), which the idle monitor drains. If resetChan is full, a WriteFrame blocks on
// it holding the lock; if the connection closes then, the monitor tries to take
// the write lock to close resetChan, and nothing drains resetChan any more.
package main

import "sync"

// fixed = 1: the monitor starts a goroutine draining resetChan just before it
// takes the write lock (spdystream PR #50).
const fixed = 0

// The buffer of resetChan, the writers and the frames each writes.
const capacity = 2
const writers = 1
const frames = 3

type Connection struct {
	closeChan chan bool
}

type idleAwareFramer struct {
	resetChan chan bool
	writeLock sync.Mutex
	conn      *Connection
}

func (i *idleAwareFramer) monitor() {
	resetChan := i.resetChan
loop:
	for {
		select {
		case <-resetChan:
			// A frame went out: the idle timer restarts (the timer is left out).
		case <-i.conn.closeChan:
			break loop
		}
	}
	if fixed == 1 {
		go func() { // stalemate:name drain
			for range resetChan {
			}
		}()
	}
	// buggy: takes the write lock while a writer may hold it, blocked on resetChan.
	i.writeLock.Lock()
	close(resetChan)
	i.resetChan = nil
	i.writeLock.Unlock()
}

func (i *idleAwareFramer) WriteFrame() {
	i.writeLock.Lock()
	defer i.writeLock.Unlock()
	if i.resetChan == nil {
		return // the connection is closed
	}
	// The frame is written here; then the monitor hears of it.
	i.resetChan <- true
}

func main() {
	conn := &Connection{closeChan: make(chan bool)}
	i := &idleAwareFramer{resetChan: make(chan bool, capacity), conn: conn}
	go i.monitor() // stalemate:name monitor
	var wg sync.WaitGroup
	wg.Add(writers)
	for w := 0; w < writers; w++ {
		go func() { // stalemate:name writer
			defer wg.Done()
			for f := 0; f < frames; f++ {
				i.WriteFrame()
			}
		}()
	}
	// The connection closes while the writers write.
	close(conn.closeChan)
	wg.Wait()
}
