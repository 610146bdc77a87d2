// Map keys of every comparable kind: a struct by value, a pointer and a channel by
// identity. Iteration follows the order keys were first used (Go's is random). A
// missing key reads the element type's zero value.
package main

type point struct{ x, y int }

type watcher struct{ id int }

type entry struct{ n int }

func main() {
	grid := map[point]string{}
	grid[point{1, 2}] = "a"
	grid[point{1, 2}] = "b"
	if len(grid) != 1 || grid[point{1, 2}] != "b" {
		panic("equal structs are one key")
	}
	if _, ok := grid[point{2, 1}]; ok {
		panic("another struct is another key")
	}
	w1, w2 := &watcher{1}, &watcher{1}
	set := map[*watcher]bool{w1: true}
	set[w2] = true
	if len(set) != 2 || !set[w1] {
		panic("pointers are keys by identity")
	}
	delete(set, w1)
	if set[w1] || !set[w2] {
		panic("delete removes that pointer only")
	}
	c1, c2 := make(chan int), make(chan int)
	chans := map[chan int]int{c1: 1, c2: 2}
	sum := 0
	for c, n := range chans {
		if c == c1 && n != 1 {
			panic("a channel key finds its value")
		}
		sum += n
	}
	if sum != 3 {
		panic("both channels are keys")
	}
	counts := make(map[string]int)
	counts["a"]++
	counts["a"] += 2
	if counts["a"] != 3 || counts["b"] != 0 {
		panic("a missing key reads 0")
	}
	if v, ok := counts["c"]; ok || v != 0 {
		panic("comma-ok on a missing key: 0, false")
	}
	entries := map[int]entry{}
	if entries[5].n != 0 {
		panic("a missing struct is the zero struct")
	}
	for p := range grid {
		if p.x != 1 || p.y != 2 {
			panic("a struct key comes back as its value")
		}
	}
}
