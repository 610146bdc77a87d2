// Go 1.21's min, max and clear, the builtin copy, and a pointer to a mutex in an array
// of them (lock striping: l := &s.locks[i]; l.Lock()), as Go runs them: a
// self-checking kernel, each check a panic if it fails.
package main

import "sync"

type striped struct {
	locks [4]sync.Mutex
	n     [4]int
}

func (s *striped) inc(k int) {
	l := &s.locks[k%4]
	l.Lock()
	s.n[k%4]++
	l.Unlock()
}

func main() {
	if min(3, 1, 2) != 1 || max(3, 7, 2) != 7 || min("b", "a") != "a" || max(5) != 5 {
		panic("min and max")
	}
	m := map[string]int{"a": 1, "b": 2}
	clear(m)
	if len(m) != 0 {
		panic("clear of a map empties it")
	}
	xs := []int{1, 2, 3}
	clear(xs[1:])
	if len(xs) != 3 || xs[0] != 1 || xs[1] != 0 || xs[2] != 0 {
		panic("clear of a slice zeroes its elements")
	}
	dst := make([]int, 2)
	if copy(dst, []int{7, 8, 9}) != 2 || dst[0] != 7 || dst[1] != 8 {
		panic("copy copies the shorter length")
	}
	b := make([]byte, 3)
	if copy(b, "hi") != 2 || b[0] != 'h' {
		panic("copy from a string")
	}
	s := &striped{}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.inc(5)
		}()
	}
	wg.Wait()
	if s.n[1] != 2 {
		panic("an increment under the striped lock was lost")
	}
}
