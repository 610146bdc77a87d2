// A goroutine parked in `select {}` outlives main: a leak.
package main

func main() {
	go func() { // stalemate:name parked
		select {}
	}()
}
