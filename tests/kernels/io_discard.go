// io.Discard is an io.Writer that takes every byte and never fails.
package main

import "io"

func copyAll(w io.Writer, chunks int) int {
	total := 0
	for i := 0; i < chunks; i++ {
		n, err := w.Write(make([]byte, 3))
		if err != nil {
			panic("Discard never fails")
		}
		total += n
	}
	return total
}

func main() {
	if copyAll(io.Discard, 2) != 6 {
		panic("Discard reports every byte written")
	}
	var x interface{} = io.Discard
	if _, ok := x.(io.Writer); !ok {
		panic("Discard is an io.Writer")
	}
}
