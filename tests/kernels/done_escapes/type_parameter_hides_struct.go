package main

// A type parameter named as a declared struct type, in a composite literal. kernel::done must see the send.

type T struct{ a chan int }

type U struct{ b chan int }

// The type parameter T hides the declared T: T{x} is a U here.
func wrap[T interface{ ~struct{ b chan int } }](x chan int, like T) T {
	return T{x}
}

func main() {
	done := make(chan int)
	u := wrap(done, U{})
	go func() { u.b <- 1 }()
	<-done
	_ = T{}
}
