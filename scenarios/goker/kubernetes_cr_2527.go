// kubernetes-sigs/controller-runtime#2527 (2023), ":bug: fix: goroutine leak",
// written from the PR's description: the manager starts a runnable in a goroutine
// that reports its error on an unbuffered errChan, and Start selects between
// errChan and its context's Done. When the context ends first, Start returns and
// the runnable's goroutine blocks on errChan forever. The fix buffers errChan.
package main

import (
	"context"
	"errors"
)

// fixed = 1: errChan has a one-element buffer (PR #2527).
const fixed = 0

func start(ctx context.Context) error {
	buffer := 0
	if fixed == 1 {
		buffer = 1
	}
	// buggy (buffer 0): nobody receives after ctx is done.
	errChan := make(chan error, buffer)
	go func() { // stalemate:name runnable
		errChan <- errors.New("runnable stopped")
	}()
	select {
	case <-ctx.Done():
		return nil
	case err := <-errChan:
		return err
	}
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	go func() { // stalemate:name signal-handler
		cancel()
	}()
	start(ctx)
	cancel()
}
