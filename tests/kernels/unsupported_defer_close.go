package main

func main() {
	ch := make(chan int)
	go func() {
		defer close(ch)
	}()
	<-ch
}
