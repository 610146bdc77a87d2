// The Go semantics the interpreter must keep, each checked by the kernel itself:
// a wrong result panics, so the test expects a pass under every schedule.
package main

import (
	"errors"
	"fmt"
	"sync"
)

type Shape interface {
	Area() int
}

type Rect struct {
	w, h int
}

func (r Rect) Area() int { return r.w * r.h }

type Square struct {
	side int
}

func (s *Square) Area() int { return s.side * s.side }

func (s *Square) Grow() { s.side++ }

type Counter struct {
	sync.Mutex
	n int
}

func (c *Counter) Inc() {
	c.Lock()
	defer c.Unlock()
	c.n++
}

var ErrNotFound = errors.New("not found")

func find(m map[string]int, k string) (int, error) {
	v, ok := m[k]
	if !ok {
		return 0, ErrNotFound
	}
	return v, nil
}

func expect(what string, got, want int) {
	if got != want {
		panic(fmt.Sprintf("%s: got %d, want %d", what, got, want))
	}
}

func deferOrder() (out []int) {
	for i := 0; i < 3; i++ {
		defer func() { out = append(out, i) }()
	}
	return nil
}

func main() {
	// Struct values copy; pointers share.
	a := Rect{w: 2, h: 3}
	b := a
	b.w = 10
	expect("struct copy", a.w, 2)
	p := &a
	p.h = 4
	expect("pointer", a.h, 4)

	// Interfaces dispatch on the dynamic type; pointer receivers mutate.
	sq := &Square{side: 2}
	shapes := []Shape{a, sq}
	sq.Grow()
	total := 0
	for _, s := range shapes {
		total += s.Area()
	}
	expect("interfaces", total, 8+9)

	// Closures capture variables, not values; Go 1.22 loop variables are per iteration.
	x := 1
	inc := func() { x++ }
	inc()
	inc()
	expect("closure", x, 3)
	var fs []func() int
	for i := 0; i < 3; i++ {
		fs = append(fs, func() int { return i })
	}
	expect("loop variable", fs[0]()+fs[1]()+fs[2](), 0+1+2)

	// Named results and deferred closures that change them, in LIFO order.
	d := deferOrder()
	expect("defers", len(d), 3)
	expect("defer order", d[0]*100+d[1]*10+d[2], 210)

	// Maps, multiple results, errors by identity.
	m := map[string]int{"a": 1}
	m["b"] = 2
	delete(m, "a")
	if _, err := find(m, "a"); err != ErrNotFound {
		panic("errors compare by identity")
	}
	v, err := find(m, "b")
	expect("map", v, 2)
	if err != nil {
		panic("nil error")
	}

	// Slices share their backing array until append outgrows it.
	s := make([]int, 2, 4)
	t := append(s, 7)
	s = append(s, 8)
	expect("append aliasing", t[2], 8)
	expect("len", len(t), 3)

	// switch with fallthrough, labelled break.
	n := 0
	switch 1 {
	case 1:
		n += 1
		fallthrough
	case 2:
		n += 10
	case 3:
		n += 100
	}
	expect("switch", n, 11)
outer:
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			if j == 1 {
				continue outer
			}
			if i == 2 {
				break outer
			}
			n++
		}
	}
	expect("labels", n, 13)

	// Goroutines, an embedded mutex, a WaitGroup, a channel ranged until closed.
	c := &Counter{}
	var wg sync.WaitGroup
	results := make(chan int, 2)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Inc()
			results <- w
		}()
	}
	wg.Wait()
	close(results)
	sum := 0
	for r := range results {
		sum += r
	}
	expect("goroutines", c.n*10+sum, 21)

	// select: a default when nothing is ready; a closed channel is always ready.
	done := make(chan struct{})
	select {
	case <-done:
		panic("not closed yet")
	default:
	}
	close(done)
	_, ok := <-done
	if ok {
		panic("receive from a closed channel reports !ok")
	}
	var once sync.Once
	k := 0
	for i := 0; i < 3; i++ {
		once.Do(func() { k++ })
	}
	expect("once", k, 1)
	// Channels of channels; a nil channel is never ready; a tagless switch.
	reqs := make(chan chan int, 1)
	reply := make(chan int, 1)
	reqs <- reply
	r := <-reqs
	r <- 5
	var nilc chan int
	got := 0
	select {
	case v := <-nilc:
		got = v
	case v := <-reply:
		got = v
	}
	switch {
	case got < 5:
		panic("tagless switch")
	case got == 5:
	default:
		panic("tagless switch default")
	}

	// Ranges over a map (key order here) and a string; type assertions; wrapped errors.
	keys := ""
	for k, v := range map[string]int{"b": 2, "a": 1} {
		keys += fmt.Sprintf("%s%d", k, v)
	}
	if keys != "a1b2" {
		panic("map range: " + keys)
	}
	runes := 0
	for range "héllo" {
		runes++
	}
	expect("string range", runes, 5)
	var sh Shape = sq
	if q, ok := sh.(*Square); !ok || q.side != 3 {
		panic("type assertion")
	}
	if _, ok := sh.(Rect); ok {
		panic("a *Square is no Rect")
	}
	err = fmt.Errorf("lookup: %v", ErrNotFound)
	if errors.Is(err, ErrNotFound) || err.Error() != "lookup: not found" {
		panic("Errorf makes a new error (no %w in the subset)")
	}
	fmt.Println("semantics: all checks passed")
}
