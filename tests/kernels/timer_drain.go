// The classic misuse of Timer.Stop: when the timer won the select, its tick was
// received already, so Stop returns false and the drain waits forever.
package main

import "time"

func main() {
	t := time.NewTimer(10 * time.Millisecond)
	done := make(chan bool, 1)
	go func() {
		time.Sleep(50 * time.Millisecond)
		done <- true
	}()
	select {
	case <-t.C:
	case <-done:
	}
	// buggy: `<-t.C` without a default hangs when the select above took the tick
	if !t.Stop() {
		<-t.C
	}
}
