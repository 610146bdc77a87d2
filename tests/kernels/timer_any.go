// Stop's result and the channel agree in every order of firing and stopping (any time
// mode: the timer may fire at any step): true means no tick will come; false means the
// tick is in the channel, since nobody else receives from it.
package main

import "time"

func main() {
	t := time.NewTimer(time.Second)
	stopped := t.Stop()
	select {
	case <-t.C:
		if stopped {
			panic("a tick arrived after Stop returned true")
		}
	default:
		if !stopped {
			panic("Stop returned false, yet no tick is in the channel")
		}
	}
}
