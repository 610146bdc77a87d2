package main

import "time"

func main() {
	t := time.NewTimer(time.Second)
	t.Reset(time.Second)
	<-t.C
}
