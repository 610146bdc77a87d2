// kubernetes#1321, "pkg/watch: fix potential deadlock" (2014), written from the
// PR's description: "If a watcher stops reading from its ResultChan and calls
// Stop, the Mux could be locked in the distribute method attempting to send a
// new watch.Event to the watcher that's now no longer watching."
package main

import "sync"

// fixed = 0 is the code the PR describes; fixed = 1 gives each watcher a stop
// channel that distribute also selects on, closed by Stop before it takes the lock.
const fixed = 0

type Event struct {
	Object int
}

type muxWatcher struct {
	result  chan Event
	stopped chan struct{}
	once    sync.Once
	id      int
	m       *Mux
}

func (mw *muxWatcher) Stop() {
	if fixed == 1 {
		mw.once.Do(func() { close(mw.stopped) })
	}
	mw.m.stopWatching(mw.id)
}

type Mux struct {
	lock     sync.Mutex
	watchers map[int]*muxWatcher
	nextID   int
	incoming chan Event
}

func NewMux() *Mux {
	m := &Mux{
		watchers: map[int]*muxWatcher{},
		incoming: make(chan Event),
	}
	go m.loop() // stalemate:name loop
	return m
}

func (m *Mux) Watch() *muxWatcher {
	m.lock.Lock()
	defer m.lock.Unlock()
	id := m.nextID
	m.nextID++
	w := &muxWatcher{result: make(chan Event), stopped: make(chan struct{}), id: id, m: m}
	m.watchers[id] = w
	return w
}

func (m *Mux) stopWatching(id int) {
	m.lock.Lock()
	defer m.lock.Unlock()
	w, ok := m.watchers[id]
	if !ok {
		return
	}
	delete(m.watchers, id)
	close(w.result)
}

func (m *Mux) Action(e Event) {
	m.incoming <- e
}

func (m *Mux) Shutdown() {
	close(m.incoming)
}

func (m *Mux) loop() {
	for event := range m.incoming {
		m.distribute(event)
	}
}

func (m *Mux) distribute(event Event) {
	m.lock.Lock()
	defer m.lock.Unlock()
	for _, w := range m.watchers {
		if fixed == 1 {
			select {
			case w.result <- event:
			case <-w.stopped:
			}
		} else {
			// buggy: a send under the lock, to a watcher that may have stopped reading.
			w.result <- event
		}
	}
}

func main() {
	m := NewMux()
	w := m.Watch()
	m.Action(Event{Object: 1})
	// The watcher stops reading its ResultChan, and stops.
	w.Stop()
	m.Shutdown()
}
