// timer_drain.go fixed: the drain does not wait when the tick is gone.
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
	if !t.Stop() {
		select {
		case <-t.C:
		default:
		}
	}
}
