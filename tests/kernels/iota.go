// iota as Go defines it: each spec's index in its block; a spec without values repeats
// the previous spec's expressions with its own iota.
package main

type State int

const (
	Idle State = iota
	Running
	Stopped
)

const (
	_  = iota
	KB = 1 << (10 * iota)
	MB
)

const (
	A, B = iota, iota * 10
	C, D
)

func main() {
	if Idle != 0 || Running != 1 || Stopped != 2 {
		panic("iota counts the specs of its block")
	}
	if KB != 1024 || MB != 1048576 {
		panic("a spec without values repeats the previous expression")
	}
	if A != 0 || B != 0 || C != 1 || D != 10 {
		panic("the names of one spec share its iota")
	}
	done := make(chan State)
	go func() { // G2
		done <- Stopped
	}()
	if <-done != Stopped {
		panic("received the wrong state")
	}
}
