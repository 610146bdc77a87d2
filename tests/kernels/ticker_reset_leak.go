// A heartbeat loop resets its ticker whenever activity is reported, and ends when
// the ticker's channel closes. But Ticker.Stop does not close C (in Go it never
// does): once main stops the ticker and returns, the loop waits forever.
package main

import "time"

func main() {
	t := time.NewTicker(time.Second)
	activity := make(chan struct{})
	go func() { // stalemate:name heartbeat
		for {
			select {
			case _, ok := <-t.C:
				if !ok {
					return
				}
			case <-activity:
				t.Reset(time.Second)
			}
		}
	}()
	activity <- struct{}{}
	// buggy: Stop does not close t.C; the heartbeat needs its own done channel.
	t.Stop()
}
