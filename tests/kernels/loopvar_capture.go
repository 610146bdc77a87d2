// The classic capture of a loop variable by the goroutines its loop starts. Before
// Go 1.22 (a go.mod that says `go 1.21`, or `stalemate check --go 1.21`) `i` and `v`
// are one variable each for the whole loop, so every goroutine reads what the loop
// goes on writing: a data race. From Go 1.22 each iteration has its own: no race.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := []int{}
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			seen = append(seen, i) // buggy before Go 1.22: reads the loop's one i
			mu.Unlock()
		}()
	}
	for _, v := range []int{10, 20} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			seen = append(seen, v) // buggy before Go 1.22: reads the loop's one v
			mu.Unlock()
		}()
	}
	wg.Wait()
	fmt.Println(len(seen))
}
