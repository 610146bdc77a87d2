package main

import "time"

func main() {
	done := make(chan bool)
	time.Tick(time.Second)
	<-done
}
