// A ring of two nodes printed with %v and %+v: Go follows a pointer at the top level
// only (`&{1 0xc000010030}`), so a value that refers to itself prints once. stalemate
// used to hang here, taking the lock of the node it was already printing.
package main

import "fmt"

type node struct {
	val  int
	next *node
}

func main() {
	a := &node{val: 1}
	b := &node{val: 2, next: a}
	a.next = b
	s := fmt.Sprintf("%v %+v", a, *b)
	fmt.Println(s)
	self := &node{val: 3}
	self.next = self
	fmt.Println(self)
}
