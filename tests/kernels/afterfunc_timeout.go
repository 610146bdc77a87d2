// A request with a timeout: time.AfterFunc closes the request's done channel when it
// fires, and the reply path closes it too, ignoring what Stop says.
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
	t.Stop() // buggy: false means the timeout has closed done already
	close(done)
}
