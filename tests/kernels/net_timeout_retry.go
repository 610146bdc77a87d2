// A reader loop retries on a net.Error that is a timeout and returns on any other
// error, but only the timeout path hands its result to the waiting caller: after a
// non-timeout error the caller waits forever.
package main

import (
	"errors"
	"math/rand"
	"net"
)

type timeout struct{}

func (timeout) Error() string   { return "i/o timeout" }
func (timeout) Timeout() bool   { return true }
func (timeout) Temporary() bool { return true }

func read() error {
	if rand.Intn(2) == 0 {
		return timeout{}
	}
	return errors.New("connection reset")
}

func main() {
	result := make(chan error)
	go func() { // stalemate:name reader
		for i := 0; i < 2; i++ {
			err := read()
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				continue
			}
			// buggy: returns without sending err on result.
			return
		}
		result <- errors.New("gave up")
	}()
	<-result
}
