package main

// A pointer receiver's target returned, then sent on. kernel::done must see the send.

type S struct{ ch chan int }

type stopCh chan struct{}

func (s *stopCh) get() stopCh { return *s }

func main() {
	x := stopCh(make(chan struct{}))
	go func() { c := x.get(); c <- struct{}{} }()
	<-x
}
