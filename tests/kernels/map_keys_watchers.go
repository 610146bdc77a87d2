// A broadcaster keeps its watchers in a map keyed by *watcher. It sends each event
// to every watcher holding the lock; a watcher that stops removes itself under the
// same lock, no longer receiving: the broadcaster blocks on its channel holding the
// lock the watcher waits for.
package main

import "sync"

type watcher struct {
	events chan int
}

type broadcaster struct {
	mu       sync.Mutex
	watchers map[*watcher]bool
}

func (b *broadcaster) send(e int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for w := range b.watchers {
		// buggy: an unbuffered send under the lock to a watcher that may have stopped.
		w.events <- e
	}
}

func (b *broadcaster) stop(w *watcher) {
	b.mu.Lock()
	delete(b.watchers, w)
	b.mu.Unlock()
}

func main() {
	b := &broadcaster{watchers: map[*watcher]bool{}}
	w := &watcher{events: make(chan int)}
	b.watchers[w] = true
	done := make(chan bool)
	go func() { // stalemate:name broadcaster
		b.send(1)
		done <- true
	}()
	b.stop(w)
	<-done
}
