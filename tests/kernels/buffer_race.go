// Two goroutines log into one bytes.Buffer with no lock: Go's race detector
// reports the buffer's writes (a bytes.Buffer is not safe for concurrent use).
package main

import (
	"bytes"
	"fmt"
	"sync"
)

func main() {
	var out bytes.Buffer
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fmt.Fprintf(&out, "worker %d done\n", i) // buggy: no lock around the shared buffer
		}()
	}
	wg.Wait()
	fmt.Print(out.String())
}
