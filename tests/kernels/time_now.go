// time.Time on the virtual clock: Now, Since, Until, Add, Sub, Before, After, Equal,
// IsZero, as Go's; run with --time virtual (durations count).
package main

import "time"

func main() {
	var zero time.Time
	if !zero.IsZero() {
		panic("the zero Time is zero")
	}
	start := time.Now()
	if start.IsZero() || !zero.Before(start) {
		panic("now is after the zero Time")
	}
	time.Sleep(50 * time.Millisecond)
	if time.Since(start) != 50*time.Millisecond {
		panic("Since counts the virtual clock")
	}
	deadline := start.Add(time.Second)
	if time.Until(deadline) != 950*time.Millisecond {
		panic("Until is the time left")
	}
	later := time.Now()
	if !later.After(start) || !start.Before(later) || later.Sub(start) != 50*time.Millisecond {
		panic("Before, After and Sub compare instants")
	}
	if !start.Add(50 * time.Millisecond).Equal(later) {
		panic("Add moves an instant")
	}
	if later.UnixNano()-start.UnixNano() != int64(50*time.Millisecond) {
		panic("UnixNano counts from a fixed instant")
	}
}
