package main

import "sync"

// Main's plain send takes w2's waiting select's place and takes w2 off its cases at
// open done channels d0, d1 (Access::Leave, commuting with w1's joins there). w1's
// select waits at d0 and d1; close(d1) completes it. In Go w1 may come after both
// closes and take d0 (found by review, with Leave, before a close commuted only with
// a wait it ends).
func main() {
	res := make(chan int) // nobody receives
	out := make(chan int)
	d0 := make(chan struct{})
	d1 := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // w1
		defer wg.Done()
		select {
		case res <- 1:
		case <-d0:
			panic("w1 took d0")
		case <-d1:
		}
	}()
	go func() { // w2
		defer wg.Done()
		select {
		case <-out:
		case <-d0:
		case <-d1:
		}
	}()
	out <- 1
	close(d1)
	close(d0)
	wg.Wait()
}
