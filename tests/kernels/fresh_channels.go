// Each round makes a fresh channel and selects on it with the one made before it:
// objects of one name selected together must share one loom point.
package main

func mk() chan int {
	ch := make(chan int, 1)
	return ch
}

func main() {
	ch := mk()
	for i := 0; i < 2; i++ {
		select {
		case <-mk():
		case <-ch:
		default:
		}
	}
}
