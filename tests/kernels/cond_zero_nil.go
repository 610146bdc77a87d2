package main

import "sync"

func main() {
	var c sync.Cond
	c.Signal() // no L yet: lost, as in Go
	c.Wait()   // Go: Wait unlocks c.L, which is nil
}
