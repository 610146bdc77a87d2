// An interface that embeds interfaces has the union of their methods: a value has
// the type when it has every method, embedded ones included.
package main

import "io"

type Starter interface{ Start() }

type Stopper interface{ Stop() }

// Runner embeds two interfaces the kernel declares, and io.Closer.
type Runner interface {
	Starter
	Stopper
	io.Closer
	Name() string
}

type worker struct{ started, stopped, closed bool }

func (w *worker) Start()        { w.started = true }
func (w *worker) Stop()         { w.stopped = true }
func (w *worker) Close() error  { w.closed = true; return nil }
func (w *worker) Name() string  { return "w" }

type half struct{}

func (h *half) Start() {}

func run(r Runner) {
	r.Start()
	r.Stop()
	r.Close()
}

func main() {
	w := &worker{}
	run(w)
	if !w.started || !w.stopped || !w.closed {
		panic("every embedded method is callable")
	}
	var x interface{} = &half{}
	if _, ok := x.(Runner); ok {
		panic("a value with only Start is not a Runner")
	}
	if _, ok := x.(Starter); !ok {
		panic("a value with Start is a Starter")
	}
	var y interface{} = w
	switch y.(type) {
	case Runner:
	default:
		panic("worker is a Runner")
	}
}
