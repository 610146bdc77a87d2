// log.Panic prints its message and panics with it: deferred calls run first, and
// the finding is a panic with log's message.
package main

import "log"

func main() {
	done := make(chan bool, 1)
	defer func() {
		done <- true
		log.Println("deferred call ran")
	}()
	log.Panicf("bad state %d", 7)
}
