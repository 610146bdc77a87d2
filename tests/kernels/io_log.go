// io.EOF is one value compared by identity, io.Reader is an interface a kernel type
// implements, and log prints to the trace.
package main

import (
	"errors"
	"io"
	"log"
)

type source struct{ left int }

func (s *source) Read(p []byte) (int, error) {
	if s.left == 0 {
		return 0, io.EOF
	}
	s.left--
	return 1, nil
}

func drain(r io.Reader) int {
	n := 0
	buf := make([]byte, 1)
	for {
		k, err := r.Read(buf)
		n += k
		if err == io.EOF {
			return n
		}
	}
}

func main() {
	if drain(&source{left: 3}) != 3 {
		panic("reads until io.EOF")
	}
	if errors.New("EOF") == io.EOF || !errors.Is(io.EOF, io.EOF) {
		panic("io.EOF is one value")
	}
	log.Printf("drained %d", 3)
}
