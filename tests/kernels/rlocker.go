// A Cond on an RWMutex's read lock: a reader waits for the writer's signal while
// holding only a read lock, as Go allows; and RLocker's Lock is RLock (two readers hold
// it at once).
package main

import "sync"

func main() {
	var rw sync.RWMutex
	ready := false
	c := sync.NewCond(rw.RLocker())
	r := rw.RLocker()
	r.Lock()
	r.Lock() // a second read lock: RLock, so it does not block
	r.Unlock()
	r.Unlock()
	done := make(chan bool)
	go func() {
		c.L.Lock()
		for !ready {
			c.Wait()
		}
		c.L.Unlock()
		done <- true
	}()
	rw.Lock()
	ready = true
	rw.Unlock()
	c.Broadcast()
	<-done
}
