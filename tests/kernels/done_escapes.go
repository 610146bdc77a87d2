package main

// Channels made as done channels would be (unbuffered, closed or received from where
// they are named) that are sent on through another name: a parameter, a field, a
// result, a receiver, an interface, a map, a slice, a pointer, a function value, a
// variadic argument, a channel of channels, a local function that hides a declared
// one. kernel::done must find each send, or the send panics as one on a done channel.

type holder struct {
	ch chan struct{}
}

type req struct {
	done chan struct{}
}

type sig chan struct{}

func (s sig) fire() { s <- struct{}{} }

type maker struct{}

func (maker) newc() chan struct{} { return make(chan struct{}) }

func send(c chan struct{}) { c <- struct{}{} }

func many(cs ...chan struct{}) { cs[0] <- struct{}{} }

func mk() chan struct{} {
	mc := make(chan struct{})
	return mc
}

func mk2() chan struct{} { return make(chan struct{}) }

func two() (int, chan struct{}) { return 1, make(chan struct{}) }

func named() (nc chan struct{}) {
	nc = make(chan struct{})
	return
}

func relay(c chan struct{}) {}

func main() {
	a := make(chan struct{}) // a parameter
	go send(a)
	<-a

	b := make(chan struct{}) // a field
	h := holder{ch: b}
	go func() { h.ch <- struct{}{} }()
	<-b

	x := mk() // a result
	go func() { x <- struct{}{} }()
	<-x

	d := sig(make(chan struct{})) // a receiver
	go d.fire()
	<-d

	reqs := make(chan req, 1) // a struct in a channel
	reqs <- req{done: make(chan struct{})}
	r := <-reqs
	go func() {
		q := r
		q.done <- struct{}{}
	}()
	<-r.done

	m := map[string]chan struct{}{"a": make(chan struct{})} // a map
	go func() { m["a"] <- struct{}{} }()
	<-m["a"]

	cs := []chan struct{}{make(chan struct{})} // a slice
	go func() { cs[0] <- struct{}{} }()
	<-cs[0]

	pc := make(chan struct{}) // a pointer
	p := &pc
	go func() { *p <- struct{}{} }()
	<-pc

	f := mk2 // a function value
	y := f()
	go func() { y <- struct{}{} }()
	<-y

	g := maker{}.newc // a method value
	z := g()
	go func() { z <- struct{}{} }()
	<-z

	_, w := two() // a second result
	go func() { w <- struct{}{} }()
	<-w

	n := named() // a named result
	go func() { n <- struct{}{} }()
	<-n

	v := make(chan struct{}) // a variadic argument
	go many(v)
	<-v

	s := make(chan struct{}) // a select's send
	go func() {
		select {
		case s <- struct{}{}:
		}
	}()
	<-s

	cc := make(chan chan struct{}, 1) // a channel of channels
	cc <- make(chan struct{})
	got := <-cc
	go func() { got <- struct{}{} }()
	<-got

	relay := func(rc chan struct{}) { rc <- struct{}{} } // a local hiding a function
	e := make(chan struct{})
	go relay(e)
	<-e

	more := []chan struct{}{} // append
	more = append(more, make(chan struct{}))
	go func() { more[0] <- struct{}{} }()
	<-more[0]
}
