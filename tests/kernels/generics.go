// Generics as Go 1.18+ writes them: each check panics if the result differs from Go's.
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

type Number interface {
	~int | ~int64
}

type Stack[T any] struct {
	mu    sync.Mutex
	items []T
}

func (s *Stack[T]) Push(v T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items = append(s.items, v)
}

func (s *Stack[T]) Pop() (T, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var zero T
	if len(s.items) == 0 {
		return zero, false
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}

type Pair[K comparable, V any] struct {
	Key K
	Val V
}

type Node[T any] struct {
	val  T
	next *Node[T]
}

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func Sum[T Number](xs ...T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

func Zero[T any]() T {
	var z T
	return z
}

func Keys[K comparable, V any](m map[K]V) []K {
	var ks []K
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

type Config struct{ name string }

func check(ok bool, what string) {
	if !ok {
		panic(what)
	}
}

func main() {
	var s Stack[string]
	var wg sync.WaitGroup
	for _, w := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Push(w)
		}()
	}
	wg.Wait()
	_, ok1 := s.Pop()
	_, ok2 := s.Pop()
	v, ok3 := s.Pop()
	check(ok1 && ok2 && !ok3 && v == "", "Stack.Pop")

	ints := &Stack[int]{}
	n, ok := ints.Pop()
	check(n == 0 && !ok, "zero int from Pop")
	ints.Push(7)
	n, _ = ints.Pop()
	check(n+1 == 8, "Pop returns the int pushed")

	strs := Map([]int{1, 2, 3}, func(i int) string { return fmt.Sprint(i * 2) })
	check(len(strs) == 3 && strs[2] == "6", "Map")
	check(Sum(1, 2, 3) == 6, "Sum")
	check(Sum[int]() == 0, "Sum of nothing")
	check(Zero[int]() == 0 && Zero[string]() == "" && !Zero[bool](), "Zero")
	check(Zero[*Config]() == nil, "Zero pointer")
	c := Zero[Config]()
	check(c.name == "", "Zero struct")

	p := Pair[string, int]{Key: "k", Val: 1}
	q := Pair[string, int]{"k", 1}
	check(p == q, "Pair equality")
	check(fmt.Sprintf("%v", p) == "{k 1}", "Pair printed")
	check(fmt.Sprintf("%T", p) == "main.Pair[string,int]", fmt.Sprintf("Pair's type: %T", p))

	ks := Keys(map[string]int{"x": 1, "y": 2})
	check(len(ks) == 2, "Keys")

	list := &Node[int]{val: 1, next: &Node[int]{val: 2}}
	total := 0
	for e := list; e != nil; e = e.next {
		total += e.val
	}
	check(total == 3, "Node list")

	var cfg atomic.Pointer[Config]
	check(cfg.Load() == nil, "atomic.Pointer zero")
	first := &Config{name: "one"}
	cfg.Store(first)
	check(cfg.Load().name == "one", "atomic.Pointer Load")
	check(!cfg.CompareAndSwap(&Config{name: "one"}, first), "CompareAndSwap compares pointers")
	old := cfg.Swap(&Config{name: "two"})
	check(old == first && cfg.Load().name == "two", "atomic.Pointer Swap")
	check(cfg.CompareAndSwap(cfg.Load(), first) && cfg.Load() == first, "CompareAndSwap")
	fmt.Println("ok")
}
