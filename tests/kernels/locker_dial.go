// An interface that embeds sync.Locker, met by a struct that embeds a mutex; and a
// dial with no network to dial: refused, as with nothing listening.
package main

import (
	"net"
	"sync"
	"time"
)

type Guard interface {
	sync.Locker
	Name() string
}

type named struct {
	sync.Mutex
	n string
}

func (g *named) Name() string { return g.n }

func main() {
	var g Guard = &named{n: "g"}
	var wg sync.WaitGroup
	count := 0
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.Lock()
			count++
			g.Unlock()
		}()
	}
	wg.Wait()
	if count != 2 || g.Name() != "g" {
		panic("wrong count or name")
	}
	_, err := net.Dial("tcp", "localhost:1")
	if err == nil || err.Error() != "dial tcp localhost:1: connect: connection refused" {
		panic("wrong dial error")
	}
	_, err = net.DialTimeout("tcp", "localhost:1", time.Second)
	if err == nil {
		panic("no dial error")
	}
}
