// A Service embeds Starter and Stopper. The loop exits when Start fails, and Stop
// then sends its request to a loop that is gone: main waits forever.
package main

import "errors"

type Starter interface{ Start() error }

type Stopper interface{ Stop() }

type Service interface {
	Starter
	Stopper
}

type server struct {
	stop  chan struct{}
	start chan error
}

func (s *server) Start() error {
	go func() { // stalemate:name loop
		if err := errors.New("port in use"); err != nil {
			s.start <- err
			// buggy: returns without serving stop requests.
			return
		}
		<-s.stop
	}()
	return <-s.start
}

func (s *server) Stop() { s.stop <- struct{}{} }

func main() {
	var svc Service = &server{stop: make(chan struct{}), start: make(chan error)}
	if err := svc.Start(); err != nil {
		println("start:", err.Error())
	}
	svc.Stop()
}
