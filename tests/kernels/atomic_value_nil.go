// Storing nil in an atomic.Value panics, as in Go.
package main

import "sync/atomic"

func main() {
	var v atomic.Value
	var err error
	v.Store(err)
}
