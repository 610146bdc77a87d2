// A test with testing/synctest (Go 1.25), as written: inside the bubble the clock
// moves only when every goroutine is blocked, and synctest.Wait returns once every
// other goroutine is. The worker reports after a second; the test checks it has not
// reported before, then sleeps its second and takes the report. The buggy form
// forgets to take it: the bubble returns with the worker blocked on its send, which
// Go's synctest reports ("main bubble goroutine has exited but blocked goroutines
// remain") and stalemate reports as a leak. `--param fixed=1` takes the report.
package worker

import (
	"testing"
	"testing/synctest"
	"time"
)

const fixed = 0

func TestReportsAfterASecond(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		done := make(chan bool)
		go func() { // stalemate:name worker
			time.Sleep(time.Second)
			done <- true
		}()
		synctest.Wait()
		select {
		case <-done:
			t.Fatal("the worker reported before its second")
		default:
		}
		start := time.Now()
		time.Sleep(time.Second)
		synctest.Wait()
		if time.Since(start) != time.Second {
			t.Fatal("synctest.Wait moved the clock")
		}
		if fixed == 1 {
			<-done
		}
		// buggy (fixed = 0): returns with the worker blocked on its send.
	})
}
