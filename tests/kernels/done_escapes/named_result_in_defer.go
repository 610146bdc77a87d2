package main

// return v assigns the named result a deferred call sends on. kernel::done must see the send.

func f() (c chan int) {
	defer func() {
		go func() { c <- 1 }()
	}()
	return make(chan int)
}

func main() {
	d := f()
	<-d
}
