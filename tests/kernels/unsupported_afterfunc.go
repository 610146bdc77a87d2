package main

import "time"

func main() {
	done := make(chan bool)
	time.AfterFunc(time.Second, func() { done <- true })
	<-done
}
