package main

// sync.Map's Store beside a declared method named Store: the library keeps the argument. kernel::done must see the send.

import "sync"

type ch chan int

type Cache struct{}

func (c *Cache) Store(k, v any) {}

func main() {
	var m sync.Map
	done := make(chan int)
	m.Store("k", ch(done))
	go func() {
		w, _ := m.Load("k")
		w.(ch) <- 1
	}()
	<-done
}
