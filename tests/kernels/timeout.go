// A 5 s timeout against a 100 ms ticker and a 1 s timer: in `any` time mode the
// timeout may fire first; in `virtual` mode it never does.
package main

import "time"

func main() {
	ticker := time.NewTicker(100 * time.Millisecond)
	defer ticker.Stop()
	timer := time.NewTimer(time.Second)
	timeout := time.After(5 * time.Second)
	select {
	case <-ticker.C:
	case <-timeout:
		panic("the 5s timeout fired before the first 100ms tick")
	}
	select {
	case <-timer.C:
	case <-timeout:
		panic("the 5s timeout fired before the 1s timer")
	}
}
