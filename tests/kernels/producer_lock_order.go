// A producer that runs for the life of the program, beside two goroutines that
// take two locks in opposite orders: the lock-order deadlock is found although
// other goroutines run on.
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
		mu2.Lock() // buggy: the other goroutine takes mu1 first
		mu1.Lock()
		mu1.Unlock()
		mu2.Unlock()
	}()
	wg.Wait()
}
