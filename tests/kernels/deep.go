// Recursion deeper than the interpreter's call bound: a panic, not a stack overflow.
package main

const depth = 1000

func f(n int) int {
	if n == 0 {
		return 0
	}
	return f(n-1) + 1
}

func main() {
	done := make(chan int)
	go func() { done <- f(depth) }()
	if <-done != depth {
		panic("wrong")
	}
}
