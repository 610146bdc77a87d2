// A close started as its own goroutine races with the send it should follow.
package main

func main() {
	ch := make(chan int, 1)
	go close(ch) // buggy: the send below may come after the close
	ch <- 1
}
