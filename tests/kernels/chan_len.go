package main

import "time"

func main() {
	c := make(chan int, 3)
	if len(c) != 0 || cap(c) != 3 {
		panic("empty")
	}
	c <- 1
	c <- 2
	if len(c) != 2 || cap(c) != 3 {
		panic("two")
	}
	<-c
	if len(c) != 1 {
		panic("one")
	}
	u := make(chan int)
	if len(u) != 0 || cap(u) != 0 {
		panic("unbuffered")
	}
	var n chan int
	if len(n) != 0 || cap(n) != 0 {
		panic("nil")
	}
	// A timer's channel has capacity 1, as before Go 1.23; the tick is in it or not.
	t := time.NewTimer(time.Second)
	if len(t.C) > 1 || cap(t.C) != 1 {
		panic("timer")
	}
	<-t.C
	if len(t.C) != 0 {
		panic("timer received")
	}
	done := make(chan bool, 1)
	go func() {
		c <- 3
		done <- true
	}()
	<-done
	if len(c) != 2 {
		panic("after the goroutine")
	}
	// A closed channel keeps what is in its buffer.
	close(c)
	if len(c) != 2 || cap(c) != 3 {
		panic("closed")
	}
}
