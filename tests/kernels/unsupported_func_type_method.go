package main

type HandlerFunc func(int) int

func (f HandlerFunc) Serve(x int) int { return f(x) }

func main() {}
