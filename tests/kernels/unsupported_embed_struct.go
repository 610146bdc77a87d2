package main

type T struct{ n int }

type I interface {
	T
	Run()
}

func main() {}
