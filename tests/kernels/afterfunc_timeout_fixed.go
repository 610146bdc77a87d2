// afterfunc_timeout.go fixed: the reply path closes done only if Stop kept the
// timeout from firing.
package main

import "time"

func main() {
	done := make(chan struct{})
	t := time.AfterFunc(50*time.Millisecond, func() {
		close(done) // the timeout
	})
	reply := make(chan int, 1)
	go func() {
		time.Sleep(50 * time.Millisecond)
		reply <- 1
	}()
	<-reply
	if t.Stop() {
		close(done)
	}
}
