package main

import "math/rand"

func main() {
	n := 0
	_ = rand.Intn(n)
}
