// &s[i] points at an element of the backing array: a store through it changes the
// slice (and every slice sharing the array), a struct element's fields and pointer
// methods work through it, and two pointers to one element are equal.
package main

type worker struct{ jobs int }

func (w *worker) take() { w.jobs++ }

func main() {
	s := []int{1, 2, 3}
	p := &s[1]
	*p = 20
	*p++
	if s[1] != 21 {
		panic("a store through &s[i] changes the element")
	}
	t := s[:2]
	if t[1] != 21 || p != &s[1] || p == &s[0] {
		panic("one element, one address")
	}
	ws := make([]worker, 2)
	w := &ws[0]
	w.take()
	w.jobs++
	if ws[0].jobs != 2 || ws[1].jobs != 0 {
		panic("a struct element through its address")
	}
	var a [2]int
	q := &a[1]
	*q = 7
	if a[1] != 7 {
		panic("an array element's address")
	}
}
