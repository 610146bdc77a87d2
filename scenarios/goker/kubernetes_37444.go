// kubernetes#37444 (2016), "Panic maybe happens, since close the same channel
// multiple times", written from the issue's description: kube-proxy's
// ServiceConfig.Channel(source) takes the mux's channel for source, makes a new
// serviceCh, and starts a goroutine that forwards serviceCh into it and closes it
// when serviceCh closes. The mux returns the same channel for the same source, so a
// second Channel("one") starts a second forwarder that closes the same channel:
// the second close panics. The fixed shape here keeps one serviceCh per source.
package main

import "sync"

// fixed = 1: Channel returns the source's existing serviceCh (one forwarder each).
const fixed = 0

type mux struct {
	mu       sync.Mutex
	channels map[string]chan int
}

func (m *mux) channel(source string) chan int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if ch, ok := m.channels[source]; ok {
		return ch
	}
	ch := make(chan int, 1)
	m.channels[source] = ch
	return ch
}

type serviceConfig struct {
	mux     *mux
	mu      sync.Mutex
	created map[string]chan int
}

func (c *serviceConfig) channel(source string) chan int {
	if fixed == 1 {
		c.mu.Lock()
		defer c.mu.Unlock()
		if s, ok := c.created[source]; ok {
			return s
		}
	}
	ch := c.mux.channel(source)
	serviceCh := make(chan int)
	go func() { // stalemate:name forwarder
		for update := range serviceCh {
			ch <- update
		}
		// buggy: a second forwarder for the same source closes ch again.
		close(ch)
	}()
	if fixed == 1 {
		c.created[source] = serviceCh
	}
	return serviceCh
}

func main() {
	c := &serviceConfig{
		mux:     &mux{channels: map[string]chan int{}},
		created: map[string]chan int{},
	}
	a := c.channel("one")
	b := c.channel("one")
	close(a)
	if fixed == 0 {
		close(b)
	}
	// Wait for the source's channel to close (drain what was forwarded).
	for range c.mux.channel("one") {
	}
}
