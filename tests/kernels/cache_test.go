// A Go test file as written: `package cache` beside the code it tests, a test with
// subtests (t.Run) and cleanups (t.Cleanup, run last first when the test returns).
// The second subtest's goroutines take the cache's two locks in opposite orders: the
// lock-order deadlock the test was written to catch. `--param fixed=1` takes them in
// one order.
package cache

import (
	"sync"
	"testing"
)

const fixed = 0

type cache struct {
	mu      sync.Mutex
	statsMu sync.Mutex
	items   map[string]int
	hits    int
}

func (c *cache) get(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.statsMu.Lock()
	c.hits++
	c.statsMu.Unlock()
	return c.items[k]
}

func (c *cache) reset() {
	if fixed == 1 {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.statsMu.Lock()
		defer c.statsMu.Unlock()
	} else {
		// buggy: statsMu before mu, where get takes mu before statsMu.
		c.statsMu.Lock()
		defer c.statsMu.Unlock()
		c.mu.Lock()
		defer c.mu.Unlock()
	}
	c.items = map[string]int{}
	c.hits = 0
}

func TestCache(t *testing.T) {
	c := &cache{items: map[string]int{"a": 1}}
	order := []int{}
	t.Cleanup(func() {
		order = append(order, 1)
		if len(order) != 2 || order[0] != 2 {
			panic("cleanups run last first")
		}
	})
	t.Cleanup(func() { order = append(order, 2) })
	cleaned := false
	t.Run("get", func(t *testing.T) {
		t.Cleanup(func() { cleaned = true })
		if t.Name() != "TestCache/get" {
			t.Fatal("a subtest's name is its test's, a slash, and its own")
		}
		if c.get("a") != 1 {
			t.Fatal("get")
		}
	})
	if !cleaned {
		t.Fatal("a subtest's cleanups run when it returns")
	}
	t.Run("concurrent", func(t *testing.T) {
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { // stalemate:name getter
			defer wg.Done()
			c.get("a")
		}()
		go func() { // stalemate:name resetter
			defer wg.Done()
			c.reset()
		}()
		wg.Wait()
	})
}

func TestGet(t *testing.T) {
	c := &cache{items: map[string]int{"b": 2}}
	if c.get("b") != 2 || c.hits != 1 {
		t.Fatal("get counts a hit")
	}
}
