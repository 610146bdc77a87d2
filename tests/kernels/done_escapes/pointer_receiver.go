package main

// A pointer receiver's target sent on (*s <- v). kernel::done must see the send.

type stopCh chan struct{}

func (s *stopCh) fire() { *s <- struct{}{} }

func main() {
	x := stopCh(make(chan struct{}))
	go x.fire()
	<-x
}
