package main

// A variable named like an import, the receiver of a method that sends: fmt.fire()
// is the method's call, not the package's. kernel::done must see the send.

import "fmt"

type sig chan int

func (s sig) fire() { s <- 1 }

func main() {
	done := make(chan int)
	fmt := sig(done)
	go fmt.fire()
	<-done
	hello()
}

func hello() { fmt.Println("x") }
