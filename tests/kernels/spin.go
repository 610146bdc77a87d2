// A loop with no Go operation in it: the statement bound ends it.
package main

func main() {
	n := 0
	for {
		n++
	}
}
