package main

// The first answer wins: main takes one result and returns, and the results channel
// has room for one, so of three workers one waits at the full buffer forever.
func main() {
	results := make(chan int, 1)
	for i := 0; i < 3; i++ {
		go func(i int) {
			results <- i
		}(i)
	}
	<-results
}
