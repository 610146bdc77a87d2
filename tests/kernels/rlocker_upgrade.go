// A reader holding the read lock through RLocker takes the write lock: RWMutex locks
// do not upgrade, so it waits for itself.
package main

import "sync"

func main() {
	var rw sync.RWMutex
	l := rw.RLocker()
	l.Lock()
	rw.Lock() // buggy: still holds the read lock
	rw.Unlock()
	l.Unlock()
}
