package main

// A package's function named like a builtin hides the builtin, as in Go: close(ch)
// here sends, and `go close(ch)`, `defer close(ch)` call it too.

func close(c chan int) { c <- 1 }

func main() {
	ch := make(chan int, 3)
	close(ch)
	if len(ch) != 1 {
		panic("the builtin close ran, not the declared one")
	}
	func() {
		defer close(ch)
	}()
	if len(ch) != 2 {
		panic("a deferred close ran the builtin")
	}
	done := make(chan bool)
	go func() {
		close(ch)
		done <- true
	}()
	<-done
	if len(ch) != 3 {
		panic("close in a goroutine ran the builtin")
	}
}
