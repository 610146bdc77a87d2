package main

import "sync"

func main() {
	var mu sync.Mutex
	ok := mu.TryLock()
	_ = ok
}
