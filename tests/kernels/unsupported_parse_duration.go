package main

import "time"

func main() {
	done := make(chan bool)
	time.ParseDuration("1s")
	<-done
}
