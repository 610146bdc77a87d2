// kubernetes#91160 (2020), "kube-aggregator: Fix goroutine leak", written from the
// PR's description: the APIService availability controller checks a service's
// discovery endpoint in a goroutine that sends its result on an unbuffered errCh,
// and sync waits for errCh or a timeout. When the timeout wins, the checking
// goroutine has no reader and leaks. The fix buffers errCh.
package main

import (
	"errors"
	"time"
)

// fixed = 1: errCh has a one-element buffer (PR #91160).
const fixed = 0

// Services checked, one after another.
const services = 1

func checkDiscovery() error {
	buffer := 0
	if fixed == 1 {
		buffer = 1
	}
	// buggy (buffer 0): after the timeout the check's send has no reader.
	errCh := make(chan error, buffer)
	go func() { // stalemate:name discovery-check
		errCh <- errors.New("discovery answered 503")
	}()
	select {
	case err := <-errCh:
		return err
	case <-time.After(5 * time.Second):
		return errors.New("timed out")
	}
}

func main() {
	for i := 0; i < services; i++ {
		checkDiscovery()
	}
}
