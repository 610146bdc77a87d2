package main

// A method promoted from an embedded interface field: its receiver is the field's value. kernel::done must see the send.

type Signaler interface {
	Signal()
}

type stopCh chan struct{}

func (s stopCh) Signal() { s <- struct{}{} }

type Outer struct {
	Signaler
}

func main() {
	done := make(chan struct{})
	o := Outer{stopCh(done)}
	go o.Signal()
	<-done
}
