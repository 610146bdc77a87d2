// Each worker counts into its shard through a pointer to the shard's element; two
// workers get the same shard (i % shards with one shard), and their increments race.
package main

import "sync"

const shards = 1

func main() {
	counts := make([]int, shards)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() { // stalemate:name worker
			defer wg.Done()
			// buggy: shards are shared when there are fewer shards than workers.
			c := &counts[i%shards]
			*c++
		}()
	}
	wg.Wait()
}
