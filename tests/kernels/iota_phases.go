// A worker reports its phases, numbered with iota, but never the last one the
// reader waits for.
package main

type phase int

const (
	starting phase = iota
	running
	stopping
)

func main() {
	events := make(chan phase)
	go func() { // G1
		events <- starting
		events <- running
		// buggy: returns without sending stopping (or closing events)
	}()
	for p := range events {
		if p == stopping {
			return
		}
	}
}
