// Copies of sync values, as go vet's copylocks reports them: a value receiver copies
// its struct, mutex included, so each call locks a mutex of its own and the counter
// the mutex should guard is raced (form 0); a WaitGroup passed by value is a copy, so
// the worker's Done never reaches main's Wait (form 1); a copy of the counter made
// while a worker may lock its mutex reads the mutex's state, which the lock writes
// (form 3, the race go test -race reports). `--param form=2` is the fix: a pointer
// receiver and a pointer to the WaitGroup.
package main

import "sync"

const form = 0 // 0: a value receiver, 1: a WaitGroup by value, 2: fixed, 3: a copy

type counter struct {
	mu sync.Mutex
	n  *int
}

// buggy (form 0): a value receiver; c.mu is the copy's.
func (c counter) incCopy() {
	c.mu.Lock()
	*c.n++
	c.mu.Unlock()
}

func (c *counter) inc() {
	c.mu.Lock()
	*c.n++
	c.mu.Unlock()
}

// buggy (form 1): the WaitGroup is a copy.
func workCopy(c *counter, wg sync.WaitGroup) {
	defer wg.Done()
	c.inc()
}

func work(c *counter, wg *sync.WaitGroup) {
	defer wg.Done()
	c.inc()
}

func main() {
	x := 0
	c := &counter{n: &x}
	var wg sync.WaitGroup
	wg.Add(2)
	if form == 3 {
		go work(c, &wg) // stalemate:name worker
		go work(c, &wg) // stalemate:name worker
		// buggy (form 3): copies the mutex while a worker may hold it.
		snapshot := *c
		println(snapshot.n != nil)
		wg.Wait()
		return
	}
	for i := 0; i < 2; i++ {
		switch form {
		case 0:
			go func() { // stalemate:name worker
				defer wg.Done()
				c.incCopy()
			}()
		case 1:
			go workCopy(c, wg) // stalemate:name worker
		default:
			go work(c, &wg) // stalemate:name worker
		}
	}
	wg.Wait()
}
