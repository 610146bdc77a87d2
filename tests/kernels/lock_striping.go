// Lock striping by address: each counter is guarded by the shard its address picks,
// uintptr(unsafe.Pointer(p)) as real code computes it. Every object has an address,
// the same in every execution and replay, and %p prints it.
package main

import (
	"fmt"
	"sync"
	"unsafe"
)

type shard struct {
	mu sync.Mutex
}

var shards [4]shard

func shardOf(p *int) *shard {
	return &shards[uintptr(unsafe.Pointer(p))>>4%4]
}

func main() {
	a, b := new(int), new(int)
	if uintptr(unsafe.Pointer(a)) == uintptr(unsafe.Pointer(b)) {
		panic("two objects at one address")
	}
	if uintptr(unsafe.Pointer(a)) != uintptr(unsafe.Pointer(a)) {
		panic("an object's address moved")
	}
	if fmt.Sprintf("%p", b) != fmt.Sprintf("0x%x", uintptr(unsafe.Pointer(b))) {
		panic("%p is not the address")
	}
	var wg sync.WaitGroup
	for _, p := range []*int{a, b, a} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := shardOf(p)
			s.mu.Lock()
			*p++
			s.mu.Unlock()
		}()
	}
	wg.Wait()
	if *a != 2 || *b != 1 {
		panic("lost an increment")
	}
}
