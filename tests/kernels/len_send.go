package main

// Two producers each check for room before sending, so as not to block; with no
// receiver after the check, both can see room for one value.
func main() {
	events := make(chan int, 1)
	done := make(chan bool)
	for i := 0; i < 2; i++ {
		go func() {
			if len(events) < cap(events) {
				events <- i
			}
			done <- true
		}()
	}
	<-done
	<-done
}
