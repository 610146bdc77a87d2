package main

import "sync"

func main() {
	var mu sync.RWMutex
	l := mu.RLocker()
	l.Lock()
	l.Unlock()
}
