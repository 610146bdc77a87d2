// Arrays are values: a store copies one, slicing one shares its elements, a zero
// array holds zero elements (sync values among them, each its own), and == compares
// them element by element.
package main

import "sync"

const n = 3

type padded struct {
	mu sync.Mutex
	_  [64]byte // padding against false sharing, as real code has it
	n  int
}

func sum(a [n]int) int {
	a[0] = 100 // the caller's array is not changed
	s := 0
	for _, v := range a {
		s += v
	}
	return s
}

func main() {
	var a [n]int
	if len(a) != 3 || a[2] != 0 {
		panic("a zero array has n zero elements")
	}
	a[1] = 5
	b := a
	b[1] = 7
	if a[1] != 5 {
		panic("a store copies an array")
	}
	if sum(a) != 105 || a[0] != 0 {
		panic("an argument is a copy")
	}
	s := a[:]
	s[2] = 9
	if a[2] != 9 {
		panic("a slice of an array shares its elements")
	}
	c := [...]int{1, 2, 3}
	d := [3]int{1, 2, 3}
	if c != d || len(c) != 3 {
		panic("== compares arrays element by element")
	}
	e := [4]int{2: 8}
	if e[2] != 8 || e[3] != 0 {
		panic("keyed elements land at their index")
	}
	var locks [2]sync.Mutex
	var wg sync.WaitGroup
	p := &padded{}
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			locks[i].Lock()
			p.mu.Lock()
			p.n++
			p.mu.Unlock()
			locks[i].Unlock()
		}()
	}
	wg.Wait()
	if p.n != 2 {
		panic("each goroutine counted once")
	}
}
