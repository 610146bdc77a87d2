// log.Panic panics after printing (deferred calls run, recover is outside the subset,
// so a deferred call here only records that it ran); log.Fatal prints and exits with
// status 1: the deferred calls of its goroutine do not run, and the program ends
// there. A watchdog that treats a late reply as fatal: the reply comes after the
// deadline in some orders, and the program exits.
package main

import (
	"log"
	"sync"
)

func worker(reply chan<- int, wg *sync.WaitGroup) {
	defer wg.Done()
	reply <- 42
}

func main() {
	reply := make(chan int, 1)
	deadline := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go worker(reply, &wg) // stalemate:name worker
	go func() { // stalemate:name clock
		close(deadline)
	}()
	ran := false
	defer func() {
		// Never reached after log.Fatal: Go's os.Exit skips deferred calls.
		ran = true
		log.Println("deferred in main", ran)
	}()
	select {
	case v := <-reply:
		log.Printf("reply %d", v)
	case <-deadline:
		// buggy: a late reply is not fatal; the program should go on without it.
		log.Fatalf("no reply before the deadline (%d goroutines waited)", 1)
	}
	wg.Wait()
}
