// A reader goroutine forwards chunks until io.EOF, then returns without closing its
// output channel: the consumer ranging over it waits forever.
package main

import (
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

func main() {
	out := make(chan int)
	go func(r io.Reader) {
		buf := make([]byte, 1)
		for {
			n, err := r.Read(buf)
			if err == io.EOF {
				return // buggy: close(out) is missing
			}
			out <- n
		}
	}(&source{left: 2})
	total := 0
	for n := range out {
		total += n
	}
	log.Println("total", total)
}
