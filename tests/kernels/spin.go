// A loop with no Go operation in it: the statement bound cuts it.
package main

func main() {
	n := 0
	for {
		n++
	}
}
