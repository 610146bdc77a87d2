// grpc-go#795 (issue grpc-go#793, "GracefulStop() deadlocks when double-called"):
// Server.GracefulStop takes the server mutex, marks the server draining, closes
// the listeners, asks every connection to drain and waits (on a sync.Cond tied
// to that mutex) until the connections have removed themselves. A second call
// finds the server already draining and returns early, but that early return
// did not unlock the mutex, so the next call (or anything else that locks the
// server) blocks forever. The PR adds the missing Unlock; the review asks why it
// was not a deferred Unlock in the first place. The test calls GracefulStop
// several times in a row (testServerGracefulStopIdempotent).
//
// https://github.com/grpc/grpc-go/pull/795
// https://github.com/grpc/grpc-go/issues/793
package main

import "sync"

// fixed = 1: the early return unlocks the server mutex.
const fixed = 0

// Open connections, and how many times the test calls GracefulStop.
const conns = 1
const calls = 3

type serverConn struct {
	id     int
	drainc chan struct{} // closed by Drain: the transport sends GOAWAY
}

type Server struct {
	mu    sync.Mutex
	cv    *sync.Cond
	lis   bool
	conns map[*serverConn]bool
	drain bool
}

// serveConn handles one connection until it is drained, then removes it.
func (s *Server) serveConn(c *serverConn) {
	<-c.drainc
	s.mu.Lock()
	delete(s.conns, c)
	s.cv.Broadcast()
	s.mu.Unlock()
}

func (s *Server) GracefulStop() {
	s.mu.Lock()
	if s.drain || s.conns == nil {
		if fixed == 1 {
			s.mu.Unlock()
		}
		// buggy: returns with s.mu still locked.
		return
	}
	s.drain = true
	s.lis = false // the listeners close
	for c := range s.conns {
		close(c.drainc)
	}
	for len(s.conns) != 0 {
		s.cv.Wait()
	}
	s.conns = nil
	s.mu.Unlock()
}

func main() {
	s := &Server{lis: true, conns: make(map[*serverConn]bool)}
	s.cv = sync.NewCond(&s.mu)
	for i := 0; i < conns; i++ {
		c := &serverConn{id: i, drainc: make(chan struct{})}
		s.conns[c] = true
		go s.serveConn(c) // stalemate:name conn
	}
	for i := 0; i < calls; i++ {
		s.GracefulStop()
	}
}
