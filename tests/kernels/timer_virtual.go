// time.Timer's Stop and Reset results as Go documents them, under virtual time
// (durations count). Timer channels have capacity 1, as before Go 1.23.
package main

import "time"

func main() {
	// Stopped before it fires: true; a second Stop: false; no tick ever arrives.
	t := time.NewTimer(time.Second)
	if !t.Stop() {
		panic("Stop before the deadline must return true")
	}
	if t.Stop() {
		panic("a second Stop must return false")
	}
	time.Sleep(2 * time.Second)
	select {
	case <-t.C:
		panic("a stopped timer must not fire")
	default:
	}

	// Fired, tick not received: Stop returns false and the tick stays.
	u := time.NewTimer(time.Millisecond)
	time.Sleep(time.Second)
	if u.Stop() {
		panic("Stop after the deadline must return false")
	}
	<-u.C

	// Expired: Reset returns false and the timer fires again.
	if u.Reset(time.Millisecond) {
		panic("Reset of an expired timer must return false")
	}
	<-u.C

	// Active: Reset returns true, and the new deadline counts.
	v := time.NewTimer(time.Hour)
	if !v.Reset(time.Millisecond) {
		panic("Reset of an active timer must return true")
	}
	deadline := time.After(time.Second)
	select {
	case <-v.C:
	case <-deadline:
		panic("the reset timer must fire at its new deadline")
	}
}
