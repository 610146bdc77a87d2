// A log shipper copies its buffered lines to a writer; configured with io.Discard it
// never blocks, but the flusher still waits on a done channel that the shipper only
// closes when a write fails, which io.Discard never does.
package main

import "io"

func ship(w io.Writer, lines chan []byte, done chan struct{}) {
	for l := range lines {
		if _, err := w.Write(l); err != nil {
			// buggy: done is closed only on a failed write.
			close(done)
			return
		}
	}
}

func main() {
	lines := make(chan []byte, 2)
	done := make(chan struct{})
	go ship(io.Discard, lines, done) // stalemate:name shipper
	lines <- []byte("a")
	lines <- []byte("b")
	<-done
}
