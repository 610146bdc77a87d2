// Ticker.Reset restarts a ticker with a new period on the same channel, and Stop
// twice is no error: under virtual time a ticker of 10s reset to 1s ticks at 1s, and
// main sees the tick before its 5s deadline.
package main

import "time"

func main() {
	t := time.NewTicker(10 * time.Second)
	t.Reset(time.Second)
	start := time.Now()
	select {
	case <-t.C:
		if time.Since(start) != time.Second {
			panic("the reset ticker ticks one second later")
		}
	case <-time.After(5 * time.Second):
		panic("the ticker kept its old period")
	}
	t.Stop()
	t.Stop()
}
