package main

// Two producers each send if there is room, and drop the value if not: a select with a
// default decides and sends in one step.
func main() {
	events := make(chan int, 1)
	done := make(chan bool)
	for i := 0; i < 2; i++ {
		go func() {
			select {
			case events <- i:
			default:
			}
			done <- true
		}()
	}
	<-done
	<-done
}
