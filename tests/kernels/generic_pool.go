// A generic worker pool: each job's result goes out on an unbuffered channel, and
// the caller stops reading at the first error, so the workers behind it block
// forever on their send (a goroutine leak).
package main

import (
	"fmt"
	"sync"
)

type Result[T any] struct {
	Val T
	Err error
}

type Pool[T any] struct {
	mu      sync.Mutex
	results chan Result[T]
	done    []T
}

func NewPool[T any]() *Pool[T] {
	return &Pool[T]{results: make(chan Result[T])}
}

func (p *Pool[T]) Run(jobs []T, f func(T) (T, error)) {
	for _, j := range jobs {
		go func() {
			v, err := f(j)
			p.results <- Result[T]{Val: v, Err: err} // buggy: nobody receives after the first error
		}()
	}
}

// Collect returns the results, or the first error.
func Collect[T any](p *Pool[T], n int) ([]T, error) {
	var zero []T
	for i := 0; i < n; i++ {
		r := <-p.results
		if r.Err != nil {
			return zero, r.Err // buggy: returns with senders still waiting
		}
		p.mu.Lock()
		p.done = append(p.done, r.Val)
		p.mu.Unlock()
	}
	return p.done, nil
}

func main() {
	p := NewPool[int]()
	p.Run([]int{1, 2, 3}, func(x int) (int, error) {
		if x == 1 {
			return 0, fmt.Errorf("job %d failed", x)
		}
		return x * 10, nil
	})
	_, err := Collect(p, 3)
	fmt.Println(err)
}
