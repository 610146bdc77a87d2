// producer_lock_order.go, fixed: both take the locks in one order.
package main

import (
	"sync"
	"time"
)

var mu1, mu2 sync.Mutex

func producer(ch chan int) {
	for i := 0; ; i++ {
		time.Sleep(time.Millisecond)
		ch <- i
	}
}

func main() {
	ch := make(chan int)
	go producer(ch)
	go func() {
		for range ch {
		}
	}()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		mu1.Lock()
		mu2.Lock()
		mu2.Unlock()
		mu1.Unlock()
	}()
	go func() {
		defer wg.Done()
		mu1.Lock() // fixed: mu1 first, as the other goroutine
		mu2.Lock()
		mu1.Unlock()
		mu2.Unlock()
	}()
	wg.Wait()
}
