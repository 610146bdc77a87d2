package main

// fmt.Fprint calls the writer's Write, though a variable is named fmt elsewhere. kernel::done must see the send.

import "fmt"

type C chan int

func (c C) Write(p []byte) (int, error) {
	c <- 1
	return len(p), nil
}

type D struct{}

func (d D) Fprint(w C, s string) {}

func shadow() {
	fmt := 1
	_ = fmt
}

func main() {
	ch := make(chan int)
	go func() { <-ch }()
	fmt.Fprint(C(ch), "x")
	shadow()
	D{}.Fprint(nil, "")
}
