// A cache's statistics, updated field by field under the cache's lock and read whole
// without it: a copy of a struct reads every field (go test -race reports the copy
// against the field's write), a comparison reads every field, and an assignment to
// the whole struct writes every field. `--param form=N` picks the unlocked access;
// `--param locked=1` takes the lock around it too (the fix).
package main

import "sync"

const (
	form   = 0 // 0: return by value, 1: v := *p, 2: ==, 3: pass by value, 4: assign whole
	locked = 0
)

type stats struct {
	reads  int
	writes int
	last   [2]int
}

type cache struct {
	mu sync.Mutex
	st stats
}

// buggy (locked = 0): a copy of c.st with no lock.
func (c *cache) Stats() stats { return c.st }

func show(s stats) { println(s.reads, s.writes) }

func (c *cache) put(k int) {
	c.mu.Lock()
	c.st.writes++
	c.st.last[1] = k
	c.mu.Unlock()
}

func (c *cache) peek() {
	switch form {
	case 0:
		s := c.Stats()
		println(s.writes)
	case 1:
		p := &c.st
		v := *p
		println(v.reads)
	case 2:
		if c.st == (stats{}) {
			println("empty")
		}
	case 3:
		show(c.st)
	default:
		c.st = stats{}
	}
}

func main() {
	c := &cache{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // stalemate:name writer
		defer wg.Done()
		c.put(7)
	}()
	go func() { // stalemate:name reader
		defer wg.Done()
		if locked == 1 {
			c.mu.Lock()
			defer c.mu.Unlock()
		}
		c.peek()
	}()
	wg.Wait()
}
