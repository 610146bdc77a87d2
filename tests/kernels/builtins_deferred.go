// Builtins as the call of go and defer, as Go runs them: the arguments are evaluated
// at the statement, the call runs at return (defer) or in a new goroutine (go).
package main

func produce(ch chan int, m map[int]int, k int) {
	defer close(ch)
	defer delete(m, k)
	k = 2 // the deferred delete keeps the k it was given
	ch <- 1
	ch <- 2
}

func main() {
	ch := make(chan int, 2)
	m := map[int]int{1: 1, 2: 2}
	produce(ch, m, 1)
	n := 0
	for v := range ch {
		n += v
	}
	if n != 3 {
		panic("the deferred close ran before the sends")
	}
	if _, ok := m[1]; ok {
		panic("the deferred delete did not run, or not on its own key")
	}
	if len(m) != 1 {
		panic("the deferred delete removed the wrong key")
	}
	done := make(chan bool)
	go close(done)
	if <-done {
		panic("a closed channel gives the zero value")
	}
	defer println("deferred print runs last")
}
