// loopvar_capture.go in a module whose go.mod says `go 1.20`: the race is found
// with no flag.
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
