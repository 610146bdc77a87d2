// A config built by one goroutine and published through a sync.Map: the reader
// that loads it sees its fields without a race, as Go's memory model says of
// sync.Map (a Store synchronizes before the Load that observes it).
package main

import "sync"

type config struct {
	name    string
	retries int
}

func main() {
	var registry sync.Map
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		c := &config{}
		c.name = "primary"
		c.retries = 3
		registry.Store("cfg", c)
	}()
	go func() {
		defer wg.Done()
		if v, ok := registry.Load("cfg"); ok {
			c := v.(*config)
			if c.retries != 3 || c.name != "primary" {
				panic("a published config is seen half built")
			}
		}
	}()
	wg.Wait()
}
